#include "corbin/fl/mechanisms/corbin.hpp"

#include <cmath>

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/pldp.hpp"
#include "corbin/utility/pair_mse.hpp"

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

std::optional<Rational> CorbinMechanism::accountant_gamma(const MechanismConfig& config,
                                                          std::string& why_not) const {
  if (augmented_) return config.gamma;
  if (config.dropout > 0) return Rational(0);
  why_not = "used with augcorbin or with dropout (CorBin-FL without dropout has no LDPQ client: outside Theorem 3)";
  return std::nullopt;
}

std::unique_ptr<Mechanism> make_corbin() { return std::make_unique<CorbinMechanism>(false); }
std::unique_ptr<Mechanism> make_augcorbin() { return std::make_unique<CorbinMechanism>(true); }

}  // namespace corbin::fl
