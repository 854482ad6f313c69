// The mechanism registry (fl/registry.hpp): a toy mechanism registered here, from a test file,
// runs through the federated round, the live check, the PLDP ratio, the MSE and `corbin sweep`
// (called in-process: analysis/sweep.hpp) exactly as the built-in ones do, and the built-in rooms
// answer the per-coordinate questions.

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "corbin/fl/live_check.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"
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

std::string parameter_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const invalid_argument& e) {
    return e.parameter();
  }
  return "(none)";
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
  std::string expected = "mechanism,exp-eps,w,law_mse,law_mse_exact,law_mse_lower,law_mse_upper\n";
  for (const char* name : {"toy", "ldp"})
    for (const int e : {3, 9})
      for (int k = 0; k < 5; ++k) {
        const Rational w = Rational(1, 4) + Rational(k, 8), alpha(e + 1, e - 1);
        const Rational level = std::string(name) == "toy" ? Rational(2 * r) : Rational(r * alpha);
        expected += std::string(name) + "," + std::to_string(e) + "," + to_decimal(Real(w), 17) + "," +
                    exact_cells(Rational(level * level - (w - c) * (w - c))) + "\n";
      }
  CHECK(mse.csv == expected);

  // Its law at w = 5/8: c − 2r = 0 with 3/8, c + 2r = 1 with 1/2 + (w − c)/(4r) = 5/8.
  a.mechanism = "toy";
  a.quantity = "law";
  a.exp_eps = "3";
  a.w = "5/8";
  CHECK(sweep(a).csv == "mechanism,exp-eps,w,output,law,law_exact,law_lower,law_upper\n"
                        "toy,3,0.625,0,0.375,3/8,0.375,0.375\n"
                        "toy,3,0.625,1,0.625,5/8,0.625,0.625\n");

  // Its PLDP ratio (3/4)/(1/4) = 3 against the 3 it claims, exactly, at an exact budget other than
  // 3 and at a certified one.
  a.quantity = "pldp_ratio";
  a.exp_eps = "9";
  const std::string header =
      "pldp_ratio,pldp_ratio_exact,pldp_ratio_lower,pldp_ratio_upper,bound,bound_exact,bound_lower,bound_upper\n";
  CHECK(sweep(a).csv == "mechanism,exp-eps," + header + "toy,9," + exact_cells(Rational(3)) + "," + exact_cells(Rational(3)) + "\n");
  a.exp_eps.clear();
  a.eps = "1";
  CHECK(sweep(a).csv == "mechanism,eps," + header + "toy,1," + exact_cells(Rational(3)) + "," + exact_cells(Rational(3)) + "\n");
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
