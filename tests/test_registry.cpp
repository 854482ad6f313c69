// The mechanism registry (fl/registry.hpp): a toy mechanism registered here, from a test file,
// runs through the federated round, the live check, the PLDP ratio, the MSE, the worst aggregate
// MSE, `corbin sweep` (called in-process: analysis/sweep.hpp) and the certified accountant
// (privacy/README.md: "To add a mechanism", followed once) exactly as the built-in ones do,
// and the built-in rooms answer the per-coordinate questions, their worst aggregate MSE against
// brute force and the closed forms.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "corbin/fl/live_check.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/exact/privacy_loss.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/quantizer/cq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "corbin/utility/worst_case.hpp"
#include "parameter_of.hpp"
#include "sweep.hpp"

using namespace corbin;
using namespace corbin::fl;

namespace {

/// Randomized response to c ± 2r: P(c + 2r) = 1/2 + (w − c)/(4r), unbiased, with likelihood
/// ratio (3/4)/(1/4) = 3 at the range's ends whatever the budget (it claims e^ε = 3).
class Toy : public Mechanism {
 public:
  std::string name() const override { return "toy"; }
  std::string summary() const override { return "a test's randomized response to c ± 2r"; }
  unsigned bits_per_coordinate() const override { return 1; }
  bool law_affine_in_w() const override { return true; }
  bool unbiased() const override { return true; }
  Interval claimed_exp_eps(const CoordinateSetting&) const override { return interval_from(Rational(3)); }

  static Rational plus_probability(const Rational& c, const Rational& r, const Rational& w) {
    return Rational(Rational(1, 2) + (w - c) / (4 * r));
  }
  std::optional<std::vector<fl::Atom>> law(const CoordinateSetting& s, const Rational& w) const override {
    check_weight("w", w, s.center, s.radius);
    const Rational p = plus_probability(s.center, s.radius, w);
    return std::vector<fl::Atom>{{Rational(s.center - 2 * s.radius), Rational(1 - p)}, {Rational(s.center + 2 * s.radius), p}};
  }

  class Sampler : public LayerSampler {
   public:
    explicit Sampler(const LayerRound& layer) : layer_(layer) {}
    void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
               std::span<float* const> outputs) const override {
      const Geometry& g = layer_.g;
      for (std::size_t k = 0; k < clients.size(); ++k) {
        const auto u = uniforms(round_secret(layer_.config, layer_.round, clients[k], "private coins"), layer_.stream,
                                layer_.size);
        for (std::size_t t = 0; t < layer_.size; ++t) {
          const double p = 0.5 + (clip(g, inputs[k][t]) - g.c) / (4 * g.r);
          outputs[k][t] = static_cast<float>(u[t] < p ? g.c + 2 * g.r : g.c - 2 * g.r);
        }
      }
    }

   private:
    LayerRound layer_;
  };
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override {
    return std::make_unique<Sampler>(layer);
  }
  /// The live check: each lone client's exact law at its clipped weight (its sampler's p in
  /// double is within 2^-53 of it, far below the check's resolution).
  std::unique_ptr<LayerCheck> check(const MechanismConfig&, const Geometry& g) const override {
    return std::make_unique<AloneLawCheck>(g, [g](float w) {
      const Rational c = to_rational(g.c), r = to_rational(g.r), x = to_rational(clip(g, w));
      const Rational p = plus_probability(c, r, x);
      return std::vector<fl::Atom>{{Rational(c - 2 * r), Rational(1 - p)}, {Rational(c + 2 * r), p}};
    });
  }
};

const Mechanism& toy() {
  static const Mechanism& registered = [] () -> const Mechanism& {
    if (!Registry::global().find_if("toy")) Registry::global().add(std::make_unique<Toy>());
    return Registry::global().find("toy");
  }();
  return registered;
}

}  // namespace

TEST_CASE("a mechanism registered from a test file is found by name and cannot be registered twice",
          "[registry][unit]") {
  const Mechanism& registered = toy();  // registers it, once per process
  CHECK(&registered == &Registry::global().find("toy"));
  CHECK(Registry::global().names().find("toy") != std::string::npos);
  CHECK(parameter_of([] { Registry::global().add(std::make_unique<Toy>()); }) == "mechanism");
  CHECK(parameter_of([] { Registry::global().find("no such"); }) == "mechanism");
  CHECK(&parse_mechanism("toy") == &toy());
}

TEST_CASE("the toy mechanism runs through the federated round and the live check", "[registry][unit]") {
  const std::size_t size = 2048;
  std::vector<float> global(2 * size);
  for (std::size_t t = 0; t < global.size(); ++t) global[t] = static_cast<float>(std::sin(0.37 * t));
  std::vector<std::vector<float>> clients;
  for (int i = 0; i < 5; ++i) {
    std::vector<float> w(global.size());
    for (std::size_t t = 0; t < w.size(); ++t) w[t] = static_cast<float>(std::sin(0.37 * t + 0.5 * i) * 1.1);
    clients.push_back(w);
  }
  const std::vector<Layer> layers{{0, size}, {size, size}};
  MechanismConfig c;
  c.mechanism = &toy();
  c.seed = 5;
  double z_sum = 0;
  for (std::uint64_t round = 0; round < 4; ++round) {
    const RoundResult r = obfuscated_mean(clients, global, layers, c, round);
    REQUIRE(r.survivors() == 5);
    CHECK(r.pairs() == 0);  // Pairing::alone
    // Every coordinate of the mean is (j(c + 2r) + (5 − j)(c − 2r))/5 for a count j in [0, 5].
    for (std::size_t t : {std::size_t(0), std::size_t(777), size + 5}) {
      const Layer& layer = t < size ? layers[0] : layers[1];
      const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
      const double j = (5 * r.aggregate[t] - 5 * (g.c - 2 * g.r)) / (4 * g.r);
      CHECK(std::abs(j - std::round(j)) < 1e-4);
      CHECK(std::round(j) >= 0);
      CHECK(std::round(j) <= 5);
    }
    // One bit a coordinate on the wire.
    CHECK(r.traffic[0].up() >= (2 * size) / 8);
    const LiveCheck check = live_check(clients, global, layers, c, r, round, 256);
    CHECK(check.coordinates == 512);
    CHECK_FALSE(check.mse_bound.has_value());
    // The exact expectation at the sampled coordinates: Σ_i (4r² − (w_i − c)²)/25.
    const auto coordinates = live_check_coordinates(layers, c.seed, round, 256);
    double expected = 0;
    for (std::size_t t : coordinates) {
      const Layer& layer = t < size ? layers[0] : layers[1];
      const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
      for (const auto& w : clients) {
        const double x = clip(g, w[t]) - g.c;
        expected += (4 * g.r * g.r - x * x) / 25;
      }
    }
    CHECK(check.mse_expected == Approx(expected / 512).epsilon(1e-9));
    CHECK(std::abs(check.z) < 4.5);
    z_sum += check.z;
  }
  CHECK(std::abs(z_sum / 2) < 4.5);  // four independent rounds: the sum has standard deviation 2
}

TEST_CASE("the toy mechanism's PLDP ratio and MSE come from its law", "[registry][unit]") {
  CoordinateSetting s;
  s.center = Rational(1, 2);
  s.radius = Rational(1, 4);
  const auto p = toy().pldp(s);
  REQUIRE(p.has_value());
  REQUIRE(p->ratio_exact.has_value());
  CHECK(*p->ratio_exact == 3);
  CHECK(p->w_high == Rational(3, 4));
  CHECK(p->w_low == Rational(1, 4));
  CHECK_FALSE(p->unbounded);
  // Checked against the 3 it claims, not the budget's e^ε.
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(9));
  CHECK(toy().pldp(s)->bound_exact == Rational(3));
  // E[(Q − w)²] = 4r² − (w − c)² for randomized response to c ± 2r.
  const auto mse = toy().mse(s, Rational(5, 8));
  REQUIRE(mse.has_value());
  CHECK(lower_of(*mse) == upper_of(*mse));
  CHECK(to_rational(lower_of(*mse)) == Rational(4, 16) - Rational(1, 64));
  CHECK(parameter_of([&] { toy().law(s, Rational(2)); }) == "w");
}

TEST_CASE("built-in rooms answer the per-coordinate questions exactly", "[registry][unit]") {
  CoordinateSetting s;
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(9));  // α = 5/4
  const Registry& r = Registry::global();
  // LDP-FL's client is LDPQ: ±5/4 with P(+) = 1/2 + w/(5/2); MSE (rα)² − w².
  const auto ldp = r.find("ldp").law(s, Rational(1, 2));
  REQUIRE(ldp.has_value());
  CHECK((*ldp)[0].value == Rational(5, 4));
  CHECK((*ldp)[0].prob == Rational(7, 10));
  CHECK(to_rational(lower_of(*r.find("ldp").mse(s, Rational(1, 2)))) == Rational(25, 16) - Rational(1, 4));
  // PBM m = 1 and RQM m = 2 have LDPQ's law (B1); PBM m = 2 does not.
  for (const char* same : {"pbm1", "rqm2"}) {
    INFO(same);
    const auto law = r.find(same).law(s, Rational(1, 2));
    REQUIRE(law.has_value());
    REQUIRE(law->size() == 2);
    CHECK(to_rational(lower_of(*r.find(same).mse(s, Rational(1, 2)))) == Rational(21, 16));
  }
  CHECK(r.find("pbm2").law(s, Rational(0))->size() == 3);
  // Every ratio is e^ε exactly where claimed; the noise baselines claim none per output.
  for (const char* name : {"ldp", "corbin", "pbm1", "pbm2", "rqm2", "rqm3"}) {
    INFO(name);
    const auto p = r.find(name).pldp(s);
    REQUIRE(p.has_value());
    REQUIRE(p->ratio_exact.has_value());
    CHECK(*p->ratio_exact == 9);
  }
  CHECK_FALSE(r.find("gaussian").pldp(s).has_value());
  CHECK(r.find("signsgd").pldp(s)->unbounded);  // [−1, 1] has both signs
  CHECK_FALSE(r.find("signsgd").federated());
  // The Gaussian's MSE is σ² at sensitivity 2r, whatever w; Laplace's 2b² = 2(2r/ε)².
  const auto gauss = r.find("gaussian").mse(s, Rational(0));
  REQUIRE(gauss.has_value());
  CHECK(lower_of(*gauss) > 0);
}

namespace {

/// Whether x holds the rational q and is as tight as 128 bits allow: an exact answer's form (the
/// rooms enclose their exact rationals at the working precision, at least 128 bits).
bool encloses_exactly(const std::optional<Interval>& x, const Rational& q) {
  if (!x) return false;
  const Rational lo = to_rational(lower_of(*x)), hi = to_rational(upper_of(*x));
  const Rational magnitude = q < 0 ? Rational(-q) : q;
  return lo <= q && q <= hi && hi - lo <= magnitude / Rational(pow2(120));
}

/// α = (e^ε + 1)/(e^ε − 1).
Rational alpha_at(const Rational& exp_eps) { return Budget::make(Budget::Kind::exp_eps, exp_eps).alpha_exact(); }

CoordinateSetting setting(const Rational& exp_eps, const Rational& c, const Rational& r) {
  CoordinateSetting s;
  s.budget = Budget::make(Budget::Kind::exp_eps, exp_eps);
  s.center = c;
  s.radius = r;
  return s;
}

/// A randomized response that is not declared unbiased (it is, but the default must not guess).
class Undeclared : public Toy {
 public:
  bool unbiased() const override { return false; }
};

}  // namespace

TEST_CASE("the worst aggregate MSE of a lone-client room bounds its MSE on a fine grid and comes within the spacing",
          "[registry][unit]") {
  // Brute force: every lone room's own mse(s, w) on 97 inputs. With |leading coefficient| <= 1
  // (−1 for LDPQ, RQM and the toy, −1/m for PBM, 0 for vanilla), the quadratic's supremum on a
  // piece exceeds its grid maximum by at most h²/4 for spacing h (the vertex is within h/2 of a
  // grid point), and the supremum is at least every grid value.
  PrecisionScope scope(128);
  const std::size_t n = 7;
  const long steps = 96;
  for (const Rational& x : {Rational(3, 2), Rational(3), Rational(9)})
    for (const auto& [c, r] : {std::pair{Rational(0), Rational(1)}, std::pair{Rational(1, 2), Rational(1, 4)}}) {
      const CoordinateSetting s = setting(x, c, r);
      const Rational h = 2 * r / steps;
      for (const char* name : {"vanilla", "ldp", "pbm1", "pbm2", "rqm2", "rqm3", "toy"}) {
        INFO(name << " at e^eps = " << to_string(x) << ", c = " << to_string(c) << ", r = " << to_string(r));
        const Mechanism& m = std::string(name) == "toy" ? toy() : Registry::global().find(name);
        const auto worst = m.worst_aggregate_mse(s, n);
        REQUIRE(worst.has_value());
        const Interval sup = Interval(*worst * interval_from(BigInt(n)));
        Real grid_max = -1;
        for (long j = 0; j <= steps; ++j) {
          const auto mse = m.mse(s, Rational(c - r + h * j));
          REQUIRE(mse.has_value());
          CHECK(lower_of(*mse) <= upper_of(sup));
          grid_max = std::max(grid_max, upper_of(*mse));
        }
        CHECK(lower_of(sup) <= grid_max + to_double(Rational(h * h / 4)));
        // As tight as the precision (exact where the law is: the tests below; PBM's θ at m = 2
        // is rational only for e^ε = 9, enclosed otherwise).
        CHECK(upper_of(*worst) - lower_of(*worst) <= ldexp(upper_of(*worst), -120));
      }
    }
}

TEST_CASE("the worst aggregate MSE of LDPQ, RQM, vanilla and the toy have their closed forms", "[registry][unit]") {
  PrecisionScope scope(128);
  const Registry& reg = Registry::global();
  const Rational c(1, 2), r(1, 4);
  const std::size_t n = 7;
  const CoordinateSetting s = setting(Rational(3), c, r);  // α = 2, so rα = 1/2
  // LDPQ: (rα)² − (w − c)², largest at w = c: α²r²/n. PBM (m = 1) and RQM (m = 2) are LDPQ (B1).
  for (const char* name : {"ldp", "pbm1", "rqm2"}) {
    INFO(name);
    CHECK(encloses_exactly(reg.find(name).worst_aggregate_mse(s, n), Rational(1, 4 * 7)));
  }
  // RQM, m = 3, q = 1/2: D = 4/(e^ε − 1) = 2, X = 3r; MSE = X² − (X/2)(X − |x|) − x², whose vertex
  // |x| = X/4 = 3r/4 lies inside [0, r]: (9/2 + 9/8 − 9/16) r² = 81r²/16.
  CHECK(encloses_exactly(reg.find("rqm3").worst_aggregate_mse(s, n), Rational(81, 16) * r * r / 7));
  CHECK(encloses_exactly(reg.find("vanilla").worst_aggregate_mse(s, n), 0));
  // The toy (registered from this file): 4r² − (w − c)², through the registry's default.
  CHECK(encloses_exactly(toy().worst_aggregate_mse(s, n), 4 * r * r / 7));
  // The default refuses what it cannot sum: a client not declared unbiased, no averaging round
  // (SignSGD), no per-client law (CQ).
  CHECK_FALSE(Undeclared().worst_aggregate_mse(s, n).has_value());
  CHECK_FALSE(reg.find("signsgd").worst_aggregate_mse(s, n).has_value());
  CHECK_FALSE(reg.find("cq").worst_aggregate_mse(s, n).has_value());
  CHECK(parameter_of([&] { reg.find("ldp").worst_aggregate_mse(s, 0); }) == "n");
  // An irrational α (ε given): an enclosure of (rα)²/n as tight as the precision.
  CoordinateSetting t = s;
  t.budget = Budget::make(Budget::Kind::eps, Rational(1));
  const Interval ldp = *reg.find("ldp").worst_aggregate_mse(t, n);
  const double alpha = (std::exp(1.0) + 1) / (std::exp(1.0) - 1);
  CHECK(midpoint_of(ldp).convert_to<double>() == Approx(alpha * alpha / 16 / 7).epsilon(1e-14));
  CHECK(upper_of(ldp) - lower_of(ldp) < 1e-35);
}

TEST_CASE("the declared unbiasedness and quadratic pieces of the lone rooms hold on their exact laws",
          "[registry][unit]") {
  // What the default relies on, checked on the laws themselves: E Q = w, and on each piece the
  // MSE agrees with the quadratic through its ends and midpoint (Lagrange) at every grid input.
  const long steps = 24;
  for (const Rational& x : {Rational(3), Rational(9)}) {
    const CoordinateSetting s = setting(x, Rational(1, 2), Rational(1, 4));
    for (const char* name : {"vanilla", "ldp", "pbm1", "pbm2", "rqm2", "rqm3"}) {
      INFO(name << " at e^eps = " << to_string(x));
      const Mechanism& m = Registry::global().find(name);
      REQUIRE(m.unbiased());
      const auto pieces = m.mse_quadratic_pieces(s);
      REQUIRE(pieces.has_value());
      const auto exact_mse = [&](const Rational& w) {
        const auto law = m.law(s, w);
        REQUIRE(law.has_value());
        Rational mean(0), mse(0);
        for (const fl::Atom& a : *law) {
          mean += a.prob * a.value;
          mse += a.prob * (a.value - w) * (a.value - w);
        }
        CHECK(mean == w);
        return mse;
      };
      if (std::string(name) == "pbm2" && x != 9) continue;  // θ irrational: no exact law
      for (std::size_t i = 0; i + 1 < pieces->size(); ++i) {
        const Rational a = (*pieces)[i], b = (*pieces)[i + 1], mid = (a + b) / 2;
        const Rational fa = exact_mse(a), fm = exact_mse(mid), fb = exact_mse(b);
        for (long j = 0; j <= steps; ++j) {
          const Rational w = a + (b - a) * Rational(j, steps);
          const Rational lagrange = fa * (w - mid) * (w - b) / ((a - mid) * (a - b)) +
                                    fm * (w - a) * (w - b) / ((mid - a) * (mid - b)) +
                                    fb * (w - a) * (w - mid) / ((b - a) * (b - mid));
          CHECK(exact_mse(w) == lagrange);
        }
      }
    }
  }
}

TEST_CASE("CorBin-FL's worst aggregate MSE is Theorem 2's d → ∞ worst case where α <= 2^d", "[registry][unit]") {
  PrecisionScope scope(128);
  const Mechanism& corbin = Registry::global().find("corbin");
  const Rational c(0), r(1);
  const std::size_t n = 50;
  // T2b: sup over inputs of the d → ∞ pair MSE is L² (α <= 2) or 4r²(α − 1) (α > 2); n/2 pairs.
  const std::vector<std::pair<Rational, Rational>> cases{
      {Rational(9), Rational(25, 16)}, {Rational(3), Rational(4)}, {Rational(2), Rational(8)},
      {Rational(11, 10), Rational(80)}};  // e^ε, sup pair MSE (α = 5/4, 2, 3, 21)
  for (const auto& [x, sup] : cases) {
    INFO("e^eps = " << to_string(x));
    CoordinateSetting s = setting(x, c, r);  // d = 5: α <= 32 in every case
    CHECK(encloses_exactly(corbin.worst_aggregate_mse(s, n), sup / (2 * 50)));
    // T2b's own worst case, from the function its check uses.
    CHECK(encloses_exactly(corbin.worst_aggregate_mse(s, n), sup_optimal_pair_mse(alpha_at(x), c, r).value / 100));
    // An odd n leaves one client on LDPQ ((rα)² at worst): 2 pairs and 1 alone of n = 5.
    const Rational alpha = alpha_at(x);
    CHECK(encloses_exactly(corbin.worst_aggregate_mse(s, 5), (2 * sup + alpha * alpha) / 25));
  }
  // Brute force at d bits over a grid of pairs (the grid holds the witnesses c + min(L, 2r)/2):
  // no pair MSE exceeds the d → ∞ supremum when α <= 2^d, at d = 1, 2, 5.
  const long steps = 24;
  for (const auto& [x, bits] : {std::pair{Rational(9), 1u}, std::pair{Rational(3), 1u}, std::pair{Rational(2), 2u},
                                std::pair{Rational(5, 3), 5u}}) {
    INFO("e^eps = " << to_string(x) << ", d = " << bits);
    const Rational alpha = alpha_at(x);
    CoordinateSetting s = setting(x, c, r);
    s.bits = bits;
    const auto worst = corbin.worst_aggregate_mse(s, 2);
    Rational grid_max(0);
    for (long i = -steps; i <= steps; ++i)
      for (long j = -steps; j <= steps; ++j)
        grid_max = std::max(grid_max, pair_utility(alpha, c, r, Rational(i, steps), Rational(j, steps), bits,
                                                    Variant::corrected).mse);
    CHECK(encloses_exactly(worst, grid_max / 4));  // one pair of n = 2: sup/n²; the grid holds a maximiser
  }
  // Below that d (α = 3 > 2^1): an enclosure, at most sup_gap wider, holding every grid value.
  {
    CoordinateSetting s = setting(Rational(2), c, r);
    s.bits = 1;
    const Interval worst = *corbin.worst_aggregate_mse(s, 2);
    const Rational alpha(3);
    Rational grid_max(0);
    for (long i = -steps; i <= steps; ++i)
      for (long j = -steps; j <= steps; ++j)
        grid_max = std::max(grid_max, pair_utility(alpha, c, r, Rational(i, steps), Rational(j, steps), 1,
                                                   Variant::corrected).mse);
    CHECK(to_rational(lower_of(worst)) <= grid_max / 4);
    CHECK(grid_max / 4 <= to_rational(upper_of(worst)));
    CHECK(to_rational(upper_of(worst)) == (8 + sup_gap(alpha, c, r, 1).value) / 4);
    CHECK(lower_of(worst) < upper_of(worst));
  }
  // The other variants are not the unbiased CorBinQ.
  CoordinateSetting s = setting(Rational(3), c, r);
  s.variant = Variant::as_printed;
  CHECK_FALSE(corbin.worst_aggregate_mse(s, n).has_value());
  // An irrational α (ε = 1: α = (e + 1)/(e − 1) ≈ 2.164 > 2) is enclosed: n/2 pairs, each at most
  // sup M = 4r²(α − 1), so the worst case is 2r²(α − 1)/n, inside the returned enclosure.
  s = setting(Rational(3), c, r);
  s.budget = Budget::make(Budget::Kind::eps, Rational(1));
  const std::optional<Interval> at_e = corbin.worst_aggregate_mse(s, n);
  REQUIRE(at_e.has_value());
  const Interval expected = Interval(2 * interval_from(Rational(r * r)) * (s.budget.alpha_interval() - 1) / n);
  CHECK(lower_of(*at_e) <= upper_of(expected));
  CHECK(lower_of(expected) <= upper_of(*at_e));
  CHECK(upper_of(*at_e) - lower_of(*at_e) < Real(1e-30));
  // Where α's enclosure passes 2^d (ε = 1/100 at d = 5: α ≈ 200) the room does not know it.
  s.budget = Budget::make(Budget::Kind::eps, Rational(1, 100));
  CHECK_FALSE(corbin.worst_aggregate_mse(s, n).has_value());
}

TEST_CASE("AugCorBin-FL's worst aggregate MSE takes ⌊γn⌋ clients alone, as the round does", "[registry][unit]") {
  PrecisionScope scope(128);
  const Mechanism& aug = Registry::global().find("augcorbin");
  const Rational c(0), r(1);
  for (const Rational& x : {Rational(9), Rational(3), Rational(2)}) {
    INFO("e^eps = " << to_string(x));
    const Rational alpha = alpha_at(x), pair_sup = sup_optimal_pair_mse(alpha, c, r).value;
    CoordinateSetting s = setting(x, c, r);  // γ = 1/2
    // The formula the audit had inline: (α²/2 + sup/4)/n, exact when 4 divides n.
    for (std::size_t n : {4ul, 100ul})
      CHECK(encloses_exactly(aug.worst_aggregate_mse(s, n), (alpha * alpha / 2 + pair_sup / 4) / Rational(BigInt(n))));
    // n = 50: 25 alone, then 12 pairs and an odd one out alone.
    CHECK(encloses_exactly(aug.worst_aggregate_mse(s, 50), (26 * alpha * alpha + 12 * pair_sup) / 2500));
    // γ = 1: everyone alone, LDP-FL's worst case; γ = 0: CorBin-FL's.
    s.gamma = 1;
    CHECK(encloses_exactly(aug.worst_aggregate_mse(s, 50), alpha * alpha / 50));
    s.gamma = 0;
    CHECK(encloses_exactly(aug.worst_aggregate_mse(s, 50), pair_sup / 100));
    s.gamma = Rational(3, 2);
    CHECK(parameter_of([&] { aug.worst_aggregate_mse(s, 50); }) == "gamma");
  }
}

TEST_CASE("the noise baselines' worst aggregate MSE is their calibrated variance over n", "[registry][unit]") {
  PrecisionScope scope(128);
  CoordinateSetting s;
  s.budget = Budget::make(Budget::Kind::eps, Rational(1, 2));
  s.center = 0;
  s.radius = 1;
  // Laplace: b = 2r/ε = 4, variance 2b² = 32, exactly.
  CHECK(encloses_exactly(Registry::global().find("laplace").worst_aggregate_mse(s, 8), 4));
  // Gaussian: σ² of the σ the round adds (rounded up to a double), to double precision.
  const Interval gauss = *Registry::global().find("gaussian").worst_aggregate_mse(s, 8);
  const double sigma = agm_sigma_double(Rational(1, 2), s.delta, Rational(2));
  CHECK(upper_of(gauss).convert_to<double>() <= sigma * sigma / 8);
  CHECK(lower_of(gauss).convert_to<double>() == Approx(sigma * sigma / 8).epsilon(1e-15));
}

TEST_CASE("the aggregate MSE at given inputs: closed forms, never above the worst case, the round's pairing",
          "[registry][unit]") {
  PrecisionScope scope(128);
  const Registry& reg = Registry::global();
  const Rational c(1, 2), r(1, 4);
  const CoordinateSetting s = setting(Rational(3), c, r);  // α = 2, so rα = 1/2
  const std::vector<Rational> w{Rational(1, 2), Rational(3, 4), Rational(1, 4), Rational(5, 8), Rational(3, 4)};
  const Rational n(5);
  const auto exactly = [](const std::optional<MseValue>& x) {
    REQUIRE(x.has_value());
    REQUIRE(x->exact.has_value());
    CHECK(to_rational(lower_of(x->enclosure)) <= *x->exact);
    CHECK(*x->exact <= to_rational(upper_of(x->enclosure)));
    return *x->exact;
  };
  // LDP-FL: independent and unbiased, Σ ((rα)² − (w − c)²)/n²; vanilla 0; the toy 4r² − (w − c)².
  Rational ldp(0), toy_sum(0);
  for (const Rational& x : w) {
    ldp += Rational(1, 4) - (x - c) * (x - c);
    toy_sum += 4 * r * r - (x - c) * (x - c);
  }
  CHECK(exactly(reg.find("ldp").aggregate_mse_at(s, w)) == ldp / (n * n));
  CHECK(exactly(reg.find("vanilla").aggregate_mse_at(s, w)) == 0);
  CHECK(exactly(toy().aggregate_mse_at(s, w)) == toy_sum / (n * n));
  // A room not declared unbiased is summed from its laws' biases (the toy's are 0 all the same).
  CHECK(exactly(Undeclared().aggregate_mse_at(s, w)) == toy_sum / (n * n));
  // AugCorBin-FL with γ = 1 is LDP-FL; with γ = 0 it is CorBin-FL.
  CoordinateSetting g = s;
  g.gamma = 1;
  CHECK(exactly(reg.find("augcorbin").aggregate_mse_at(g, w)) == ldp / (n * n));
  g.gamma = 0;
  CHECK(exactly(reg.find("augcorbin").aggregate_mse_at(g, w)) == exactly(reg.find("corbin").aggregate_mse_at(s, w)));
  // Two clients of CorBin-FL: the server's order makes either the leader, each half the time.
  const std::vector<Rational> two{Rational(1, 2), Rational(5, 8)};
  const Rational alpha(2);
  const Rational pair_mean = (pair_utility(alpha, c, r, two[0], two[1], 5, Variant::corrected).mse +
                              pair_utility(alpha, c, r, two[1], two[0], 5, Variant::corrected).mse) / 2;
  CHECK(exactly(reg.find("corbin").aggregate_mse_at(s, two)) == pair_mean / 4);
  // Never above the worst case over inputs, which all clients at CorBin-FL's witness attain
  // (α <= 2^d: every pair at its sup, whatever the order), and LDP-FL's at the center.
  for (const char* name : {"ldp", "corbin", "augcorbin", "pbm1", "rqm3", "vanilla"}) {
    INFO(name);
    const Mechanism& m = reg.find(name);
    const Rational worst = *m.worst_aggregate_mse_exact(s, w.size());
    CHECK(exactly(m.aggregate_mse_at(s, w)) <= worst);
  }
  const Rational witness = sup_optimal_pair_mse(alpha, c, r).w;
  CHECK(exactly(reg.find("corbin").aggregate_mse_at(s, std::vector<Rational>(6, witness))) ==
        *reg.find("corbin").worst_aggregate_mse_exact(s, 6));
  CHECK(exactly(reg.find("ldp").aggregate_mse_at(s, std::vector<Rational>(6, c))) ==
        *reg.find("ldp").worst_aggregate_mse_exact(s, 6));
  // CQ, exactly: one client is one Bernoulli, (2r)² y(1 − y); six at the center cancel whatever
  // the order (half of the slots send the top level for sure); a mixed set is the mean over every
  // rank order of the live check's moments for that order (double, to its rounding).
  CHECK(exactly(reg.find("cq").aggregate_mse_at(s, {Rational(9, 16)})) == 4 * r * r * Rational(5, 8) * Rational(3, 8));
  CHECK(exactly(reg.find("cq").aggregate_mse_at(s, std::vector<Rational>(6, c))) == 0);
  std::vector<double> y;
  for (const Rational& x : w) y.push_back(to_double(Rational((x - c + r) / (2 * r))));
  std::sort(y.begin(), y.end());
  double over_orders = 0;
  int orders = 0;
  do {
    over_orders += cq_error_moments(y).m2;
    ++orders;
  } while (std::next_permutation(y.begin(), y.end()));
  const Rational cq = exactly(reg.find("cq").aggregate_mse_at(s, w));
  CHECK(to_double(cq) == Approx(over_orders / orders * to_double(Rational(4 * r * r / (n * n)))).epsilon(1e-12));
  // ... which one order alone is not: the order given, sorted, is far from the mean.
  CHECK(to_double(cq) != Approx(cq_error_moments(y).m2 * to_double(Rational(4 * r * r / (n * n)))).epsilon(1e-3));
  // The noise baselines: σ²/n or 2b²/n at any inputs, their worst case; an ε budget enclosed.
  CoordinateSetting e = s;
  e.budget = Budget::make(Budget::Kind::eps, Rational(1, 2));
  for (const char* name : {"gaussian", "laplace"}) {
    INFO(name);
    const auto at = reg.find(name).aggregate_mse_at(e, w);
    REQUIRE(at.has_value());
    const Interval worst = *reg.find(name).worst_aggregate_mse(e, w.size());
    CHECK(lower_of(at->enclosure) <= upper_of(worst));
    CHECK(lower_of(worst) <= upper_of(at->enclosure));
  }
  const auto corbin_e = reg.find("corbin").aggregate_mse_at(e, w);
  REQUIRE(corbin_e.has_value());
  CHECK_FALSE(corbin_e->exact.has_value());
  CHECK(upper_of(corbin_e->enclosure) - lower_of(corbin_e->enclosure) < Real(1e-30));
  // No averaging round (SignSGD); bad inputs by name.
  CHECK_FALSE(reg.find("signsgd").aggregate_mse_at(s, w).has_value());
  CHECK(parameter_of([&] { reg.find("ldp").aggregate_mse_at(s, {}); }) == "weights");
  CHECK(parameter_of([&] { reg.find("corbin").aggregate_mse_at(s, {c, Rational(1)}); }) == "weights[1]");
  CHECK(parameter_of([&] { reg.find("cq").aggregate_mse_at(s, {Rational(0)}); }) == "weights[0]");
}

TEST_CASE("quadratic_sup finds the supremum of a quadratic from three values", "[utility][unit]") {
  // f(t) = 1 + t/2 − t² on [−1, 1]: vertex t = 1/4, value 17/16; f(−1) = −1/2, f(1) = 1/2.
  CHECK(quadratic_sup(Rational(-1, 2), Rational(1), Rational(1, 2)) == Rational(17, 16));
  // Convex, or the vertex outside: the larger end.
  CHECK(quadratic_sup(Rational(2), Rational(0), Rational(1)) == 2);
  CHECK(quadratic_sup(Rational(0), Rational(3, 4), Rational(1)) == 1);  // 3/4 + t/2 − t²/4: vertex at t = 1
  CHECK(quadratic_sup(Rational(5), Rational(5), Rational(5)) == 5);
  PrecisionScope scope(128);
  const Interval v = quadratic_sup(interval_from(Rational(-1, 2)), interval_from(Rational(1)), interval_from(Rational(1, 2)));
  CHECK(lower_of(v) == upper_of(v));
  CHECK(to_rational(lower_of(v)) == Rational(17, 16));
  // Undecided branch (A's enclosure straddles 0): an enclosure of either answer.
  const Interval a = interval_hull(Real(-1e-40), Real(1e-40));
  const Interval u = quadratic_sup(Interval(interval_from(Rational(1)) + a), interval_from(Rational(1)),
                                   Interval(interval_from(Rational(1)) + a));
  CHECK(lower_of(u) <= 1);
  CHECK(upper_of(u) >= 1);
  CHECK(upper_of(u) - lower_of(u) < 1e-39);
}

namespace {

/// `corbin sweep` in-process: the CSV, or the parameter a refusal names (and then nothing was
/// written).
struct Swept {
  std::string csv, refused;
};
Swept sweep(const cli::SweepArgs& a) {
  std::ostringstream out;
  Swept s;
  try {
    cli::write_sweep(a, out);
  } catch (const invalid_argument& e) {
    s.refused = e.parameter();
  }
  s.csv = out.str();
  return s;
}

/// A value's CSV cells as the sweep writes an exact one: decimal, p/q, decimal, decimal.
std::string exact_cells(const Rational& x) {
  const std::string d = to_decimal(Real(x), 17);
  return d + "," + to_string(x) + "," + d + "," + d;
}

}  // namespace

TEST_CASE("the toy mechanism runs through corbin sweep: its exact MSE, law and PLDP ratio at every grid point",
          "[registry][unit]") {
  toy();
  const Rational c(1, 2), r(1, 4);
  cli::SweepArgs a;
  a.center = "1/2";
  a.radius = "1/4";
  a.mechanism = "toy,ldp";
  a.quantity = "law_mse";
  a.exp_eps = "3,9";
  a.w = "1/4:3/4:5";
  const Swept mse = sweep(a);
  REQUIRE(mse.refused.empty());
  // Rows by mechanism, then budget, then w: the toy's 4r² − (w − c)² (randomized response to
  // c ± 2r, whatever the budget), then LDPQ's (rα)² − (w − c)² with α = (e^ε + 1)/(e^ε − 1).
  // The setting (c, r) is recorded in every row, exactly, before the value's cells.
  std::string expected = "mechanism,exp-eps,w,center,radius,law_mse,law_mse_exact,law_mse_lower,law_mse_upper\n";
  for (const char* name : {"toy", "ldp"})
    for (const int e : {3, 9})
      for (int k = 0; k < 5; ++k) {
        const Rational w = Rational(1, 4) + Rational(k, 8), alpha(e + 1, e - 1);
        const Rational level = std::string(name) == "toy" ? Rational(2 * r) : Rational(r * alpha);
        expected += std::string(name) + "," + std::to_string(e) + "," + to_decimal(Real(w), 17) + ",1/2,1/4," +
                    exact_cells(Rational(level * level - (w - c) * (w - c))) + "\n";
      }
  CHECK(mse.csv == expected);

  // Its law at w = 5/8: c − 2r = 0 with 3/8, c + 2r = 1 with 1/2 + (w − c)/(4r) = 5/8.
  a.mechanism = "toy";
  a.quantity = "law";
  a.exp_eps = "3";
  a.w = "5/8";
  CHECK(sweep(a).csv == "mechanism,exp-eps,w,output,center,radius,law,law_exact,law_lower,law_upper\n"
                        "toy,3,0.625,0,1/2,1/4,0.375,3/8,0.375,0.375\n"
                        "toy,3,0.625,1,1/2,1/4,0.625,5/8,0.625,0.625\n");

  // Its PLDP ratio (3/4)/(1/4) = 3 against the 3 it claims, exactly, at an exact budget other than
  // 3 and at a certified one.
  a.quantity = "pldp_ratio";
  a.exp_eps = "9";
  const std::string header =
      "pldp_ratio,pldp_ratio_exact,pldp_ratio_lower,pldp_ratio_upper,bound,bound_exact,bound_lower,bound_upper\n";
  CHECK(sweep(a).csv == "mechanism,exp-eps,center,radius," + header + "toy,9,1/2,1/4," + exact_cells(Rational(3)) + "," +
                            exact_cells(Rational(3)) + "\n");
  a.exp_eps.clear();
  a.eps = "1";
  CHECK(sweep(a).csv == "mechanism,eps,center,radius," + header + "toy,1,1/2,1/4," + exact_cells(Rational(3)) + "," +
                            exact_cells(Rational(3)) + "\n");
}

TEST_CASE("corbin sweep refuses by name, and writes nothing, where a room cannot answer", "[registry][unit]") {
  toy();
  cli::SweepArgs a;
  a.quantity = "law";
  a.exp_eps = "3";
  a.mechanism = "toy,gaussian";  // the toy's rows are computed, then the Gaussian has no finite law
  Swept s = sweep(a);
  CHECK(s.refused == "mechanism");  // the room's refusal (fl::answered_law); the CLI prints --mechanism
  CHECK(s.csv.empty());
  a.mechanism = "toy,nope";
  s = sweep(a);
  CHECK(s.refused == "mechanism");  // the registry's name; the CLI maps it to --mechanism
  CHECK(s.csv.empty());
  a.mechanism = "toy";
  a.quantity = "mse";  // CorBinQ's pair MSE is not a room's quantity
  CHECK(sweep(a).refused == "--mechanism");
  a.quantity = "law_mse";
  a.w = "1";  // c + r, the range's end: answered
  CHECK(sweep(a).refused.empty());
  a.w = "5/4";  // beyond it
  CHECK(sweep(a).refused == "--w");
}

TEST_CASE("a mechanism registered with its law alone is accounted by the default builder, and the "
          "bracket holds its exact worst case", "[registry][unit]") {
  // The toy says only what privacy/README.md asks of a new lone room (its law, affine in w), and
  // the default Mechanism::round_accountant gives its certified round. Two clients, client 1 at
  // c + r against c − r (P(+) = 3/4 against 1/4), the other at either end: the exact ε(δ) is the
  // larger of the two configurations', from the exact laws of the released sum.
  const Mechanism& room = toy();
  CoordinateSetting s;
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  std::string why;
  const std::optional<Accountant> round = room.round_accountant(s, 2, PldLimits{}, why);
  REQUIRE(round.has_value());
  const auto sum_law = [](const Rational& first, const Rational& second) {
    SumLaw out;  // the number of "+" of two independent clients
    out[Rational(0)] = (1 - first) * (1 - second);
    out[Rational(1)] = first * (1 - second) + (1 - first) * second;
    out[Rational(2)] = first * second;
    return out;
  };
  for (const Rational delta : {Rational(1, 100), Rational(1, 10)}) {
    double exact = 0;
    for (const Rational other : {Rational(1, 4), Rational(3, 4)}) {
      const PrivacyLoss::AtDelta x =
          exp_eps_for_delta(sum_law(Rational(3, 4), other), sum_law(Rational(1, 4), other), delta);
      REQUIRE_FALSE(x.infinite);
      exact = std::max(exact, std::log(to_double(x.exp_eps)));
    }
    INFO("δ = " << to_string(delta) << ", exact ε = " << exact);
    const TwoSided b = round->epsilon(delta);
    CHECK(b.lower <= exact * (1 + 1e-12));
    CHECK(b.upper >= exact * (1 - 1e-12));
    CHECK(b.upper - b.lower < 0.02);
    CHECK(exact < std::log(3.0));  // the other client's noise hides client 1 a little
  }
  // Ten uses (k = 10): the bracket still holds the exact composition of the worst configuration.
  const PrivacyLoss loss = PrivacyLoss::of(sum_law(Rational(3, 4), Rational(1, 4)), sum_law(Rational(1, 4), Rational(1, 4)));
  const double exact10 = std::log(to_double(loss.power(10).exp_eps_for(Rational(1, 100)).exp_eps));
  CHECK(round->compose(10).epsilon(Rational(1, 100)).upper >= exact10 * (1 - 1e-12));
}
