#include "corbin/fl/mechanisms/corbin.hpp"

#include <cmath>
#include <stdexcept>

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/worst_case/aggregate_law.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/utility/aggregate.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "corbin/utility/worst_case.hpp"

namespace corbin::fl {
namespace {

class CorbinSampler : public LdpqLayerSampler {
 public:
  using LdpqLayerSampler::LdpqLayerSampler;
  void pair(const PairChannel& c, const float* leader, const float* follower, float* out_leader,
            float* out_follower) const override {
    const CorbinqPairSampler sampler(law_, layer_.config.bits, c.z_key, coins(c.leader), coins(c.follower),
                                     layer_.stream);
    if (layer_.config.protocol.transport == ZTransport::derived)
      sampler.sample(leader, follower, out_leader, out_follower, layer_.size);
    else
      sampler.sample_with_z(c.z[layer_.stream].data(), leader, follower, out_leader, out_follower, layer_.size);
  }
};

class CorbinCheck : public LayerCheck {
 public:
  CorbinCheck(const MechanismConfig& config, const Geometry& g) : ldpq_(config, g), bits_(config.bits) {}
  CoordinateCheck coordinate(std::span<const float> alone,
                             std::span<const std::pair<float, float>> pairs) const override {
    std::vector<ErrorMoments> parts;
    for (float w : alone) parts.push_back(ldpq_.alone(w));
    bool nan = false;
    for (const auto& [a, b] : pairs) {
      const JointLaw<Rational> j =
          fixed_point_joint_law(ldpq_.law.fixed_q(a, nan), ldpq_.law.fixed_q(b, nan), bits_);
      const Rational w = to_rational(clip(ldpq_.g, a)) + to_rational(clip(ldpq_.g, b));
      const Rational &plus = ldpq_.plus, &minus = ldpq_.minus;
      parts.push_back(error_moments({{plus + plus - w, j.pp}, {plus + minus - w, j.pm}, {minus + plus - w, j.mp},
                                     {minus + minus - w, j.mm}}));
    }
    const std::size_t survivors = alone.size() + 2 * pairs.size();
    CoordinateCheck c = combine(parts, survivors);
    // Thm 2/3 (d → ∞) plus Thm 1's gap bound r²α²/2^(d−6) per pair.
    const double kk = static_cast<double>(survivors), alpha = ldpq_.alpha, r = ldpq_.g.r;
    c.bound = (static_cast<double>(alone.size()) * ldpq_.level * ldpq_.level +
               static_cast<double>(pairs.size()) * r * r *
                   (paper_pair_constant(alpha) + alpha * alpha * std::ldexp(64.0, -static_cast<int>(bits_)))) /
              (kk * kk);
    return c;
  }

 private:
  LdpqLayer ldpq_;
  unsigned bits_;
};

}  // namespace

std::string CorbinMechanism::summary() const {
  return augmented_ ? "AugCorBin-FL: the first ⌊γn⌋ clients alone with LDPQ, the rest in CorBinQ pairs, one bit"
                    : "CorBin-FL: clients in CorBinQ pairs over d shared bits (Alg. 3), one bit";
}

std::unique_ptr<LayerSampler> CorbinMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<CorbinSampler>(layer);
}

std::unique_ptr<LayerCheck> CorbinMechanism::check(const MechanismConfig& config, const Geometry& g) const {
  return std::make_unique<CorbinCheck>(config, g);
}

std::optional<PldpSummary> CorbinMechanism::pldp(const CoordinateSetting& s) const {
  const auto fill = [](const auto& p) {
    PldpSummary out = summary_of(p);
    out.client = p.client == 1 ? "leader (Q1)" : "follower (Q2)";
    if constexpr (NumTraits<std::decay_t<decltype(p.w_partner)>>::kExact) out.w_partner = p.w_partner;
    else out.w_partner = to_rational(midpoint_of(p.w_partner));
    return out;
  };
  if (s.budget.exact()) return fill(corbinq_pldp(s.budget.alpha_exact(), s.center, s.radius, s.bits, s.variant));
  PrecisionScope scope(std::max(working_precision_bits(), 128u + s.bits));
  return fill(corbinq_pldp(s.budget.alpha_interval(), s.center, s.radius, s.bits, s.variant));
}

std::optional<Interval> CorbinMechanism::worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const {
  if (n == 0) throw invalid_argument("n", "0", "at least 1 client");
  check_radius(s.radius);
  // The pair functions are exact (a rational α) and for the corrected CorBinQ, the unbiased one.
  if (s.variant != Variant::corrected) return std::nullopt;
  if (!s.budget.exact()) {
    // A transcendental α (an ε budget) lies inside its certified enclosure [α_lo, α_hi]. Where
    // α_hi <= 2^d the worst case below is the d → ∞ one: r²α² for a lone client and sup M =
    // r²α² (α <= 2) or 4r²(α − 1) (α > 2) for a pair (Theorem 2's Appendix C, T2b's closed form),
    // each increasing in α, so the value at α lies between the exact values at the two ends.
    const Interval a = s.budget.alpha_interval();
    const Rational lo = to_rational(lower_of(a)), hi = to_rational(upper_of(a));
    if (!(hi <= Rational(pow2(s.bits))) || lo <= 1) return std::nullopt;
    CoordinateSetting at = s;
    at.budget = Budget::make(Budget::Kind::alpha, lo);
    const std::optional<Interval> low = worst_aggregate_mse(at, n);
    at.budget = Budget::make(Budget::Kind::alpha, hi);
    const std::optional<Interval> high = worst_aggregate_mse(at, n);
    if (!low || !high) return std::nullopt;
    return interval_hull(lower_of(*low), upper_of(*high));
  }
  const auto [low, high] = worst_aggregate_bounds(s, n);
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return interval_hull(lower_of(interval_from(low)), upper_of(interval_from(high)));
}

std::optional<Rational> CorbinMechanism::worst_aggregate_mse_exact(const CoordinateSetting& s, std::size_t n) const {
  if (n == 0) throw invalid_argument("n", "0", "at least 1 client");
  check_radius(s.radius);
  if (s.variant != Variant::corrected || !s.budget.exact()) return std::nullopt;
  const auto [low, high] = worst_aggregate_bounds(s, n);
  if (low != high) return std::nullopt;
  return low;
}

std::pair<Rational, Rational> CorbinMechanism::worst_aggregate_bounds(const CoordinateSetting& s, std::size_t n) const {
  const Rational alpha = s.budget.alpha_exact();
  const std::size_t first = lone_before_pairs(pairing(), s.gamma, n);
  const std::size_t pairs = (n - first) / 2, alone = n - 2 * pairs;
  // A lone client is LDPQ: L² − (w − c)² (L = rα), largest at w = c.
  const Rational lone = ldpq_mse(alpha, s.center, s.radius, s.center);
  // A pair. At d → ∞ (the optimal coupling) the supremum is sup_optimal_pair_mse's, at its
  // witness. At d bits the corrected law adds the gap 8L²(min(f1, f2) − f1 f2)/2^d only where
  // ⌊u⌋ = ⌊v⌋ (sup_gap's notation), i.e. |t| < 2L/2^d for t = x1 + x2 (u − v = 2^d t/(2L)); there
  // |f1 − f2| = 2^d|t|/(2L), so the gap is at most 2L²(1 − 2^d|t|/(2L))²/2^d and the pair MSE at
  // most h(|t|) = 2L|t| − t² + that, with h'(|t|) = |t|(2^d − 2) >= 0 (d >= 1): h rises to the
  // d → ∞ MSE at |t| = 2L/2^d. When α <= 2^d that point is an input (2L/2^d <= 2r), so the
  // supremum is the d → ∞ one, reached at its witness (|t| = min(L, 2r) >= 2L/2^d: no gap there).
  // Otherwise it lies between the values at the two witnesses and the d → ∞ one plus sup_gap's.
  const OptimalPairSupremum optimal = sup_optimal_pair_mse(alpha, s.center, s.radius);
  const auto pair_at = [&](const Rational& w1, const Rational& w2) {
    return pair_utility(alpha, s.center, s.radius, w1, w2, s.bits, s.variant).mse;
  };
  Rational pair_low = pair_at(optimal.w, optimal.w), pair_high = optimal.value;
  if (alpha <= Rational(pow2(s.bits))) {
    if (pair_low != optimal.value)
      throw std::logic_error("CorBinQ's pair MSE at the d → ∞ witness differs from the d → ∞ supremum");
  } else {
    const GapSupremum<Rational> gap = sup_gap(alpha, s.center, s.radius, s.bits);
    pair_low = NumTraits<Rational>::max(pair_low, pair_at(gap.w1, gap.w2));
    pair_high += gap.value;
  }
  return {worst_mean_mse<Rational>({{alone, 1, lone}, {pairs, 2, pair_low}}, n),
          worst_mean_mse<Rational>({{alone, 1, lone}, {pairs, 2, pair_high}}, n)};
}

std::optional<MseValue> CorbinMechanism::aggregate_mse_at(const CoordinateSetting& s,
                                                          const std::vector<Rational>& weights) const {
  check_inputs(s, weights);
  const std::size_t lone = lone_before_pairs(pairing(), s.gamma, weights.size());
  if (s.budget.exact()) {
    const Rational value = random_order_aggregate_mse(s.budget.alpha_exact(), s.center, s.radius, weights, lone,
                                                      s.bits, s.variant);
    return MseValue{value, interval_from(value)};
  }
  PrecisionScope scope(std::max(working_precision_bits(), 128u + s.bits));
  return MseValue{std::nullopt, random_order_aggregate_mse(s.budget.alpha_interval(), s.center, s.radius, weights,
                                                           lone, s.bits, s.variant)};
}

std::optional<Rational> CorbinMechanism::accountant_gamma(const MechanismConfig& config,
                                                          std::string& why_not) const {
  if (augmented_) return config.gamma;
  if (config.dropout > 0) return Rational(0);
  why_not = "used with augcorbin or with dropout (CorBin-FL without dropout has no LDPQ client: outside Theorem 3)";
  return std::nullopt;
}

std::optional<Accountant> CorbinMechanism::round_accountant(const CoordinateSetting& s, std::size_t n,
                                                            const PldLimits& limits, std::string& why_not) const {
  if (s.dropout > 0) {
    why_not = "asked with dropout through the run's accountant (privacy/run/round.hpp), which mixes over who survived";
    return std::nullopt;
  }
  if (s.relation != Neighbour::replace_one) {
    why_not = "used under replace one here (remove one is Theorem 3's accountant's, AccountSetting's relation)";
    return std::nullopt;
  }
  AccountSetting population;
  population.n = n;
  population.gamma = augmented_ ? s.gamma : Rational(0);
  population.budget = s.budget;
  population.center = s.center;
  population.radius = s.radius;
  population.bits = s.bits;
  population.variant = s.variant;
  std::optional<Accountant> out;
  const PopulationCounts counts = population_counts(n, population.gamma);
  for (const TargetClient::Role role : {TargetClient::Role::ldpq, TargetClient::Role::leader}) {
    if ((role == TargetClient::Role::ldpq ? counts.ldpq : counts.pairs) == 0) continue;
    population.role = role;
    const Accountant a(population, limits);
    out = out ? out->either(a) : a;
  }
  return out;
}

std::unique_ptr<Mechanism> make_corbin() { return std::make_unique<CorbinMechanism>(false); }
std::unique_ptr<Mechanism> make_augcorbin() { return std::make_unique<CorbinMechanism>(true); }

}  // namespace corbin::fl
