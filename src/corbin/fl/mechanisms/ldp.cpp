#include "corbin/fl/mechanisms/ldp.hpp"

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin::fl {
namespace {

class LdpCheck : public LayerCheck {
 public:
  LdpCheck(const MechanismConfig& config, const Geometry& g) : ldpq_(config, g) {}
  CoordinateCheck coordinate(std::span<const float> alone, std::span<const std::pair<float, float>>) const override {
    std::vector<ErrorMoments> parts;
    for (float w : alone) parts.push_back(ldpq_.alone(w));
    CoordinateCheck c = combine(parts, alone.size());
    // Each lone client's MSE is at most (rα)² (Appendix A).
    const double k = static_cast<double>(alone.size());
    c.bound = k * ldpq_.level * ldpq_.level / (k * k);
    return c;
  }

 private:
  LdpqLayer ldpq_;
};

}  // namespace

LdpqLayerSampler::LdpqLayerSampler(const LayerRound& layer)
    : layer_(layer), law_(layer.config.budget, to_rational(layer.g.c), to_rational(layer.g.r)) {}

Key LdpqLayerSampler::coins(std::size_t client) const {
  return round_secret(layer_.config, layer_.round, client, "private coins");
}

void LdpqLayerSampler::alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
                             std::span<float* const> outputs) const {
  for (std::size_t k = 0; k < clients.size(); ++k)
    LdpqSampler(law_, coins(clients[k]), layer_.stream).sample(inputs[k], outputs[k], layer_.size);
}

LdpqLayer::LdpqLayer(const MechanismConfig& config, const Geometry& geometry)
    : law(config.budget, to_rational(geometry.c), to_rational(geometry.r)), g(geometry) {
  plus = to_rational(law.plus_value());
  minus = to_rational(law.minus_value());
  PrecisionScope scope(128);
  alpha = config.budget.exact() ? to_double(config.budget.alpha_exact())
                                : midpoint_of(config.budget.alpha_interval()).convert_to<double>();
  level = g.r * alpha;
}

ErrorMoments LdpqLayer::alone(float w) const {
  bool nan = false;
  const Rational q(BigInt(law.fixed_q(w, nan)), BigInt(pow2(kFixedBits)));
  const Rational x = to_rational(clip(g, w));
  return error_moments({{plus - x, q}, {minus - x, Rational(1 - q)}});
}

template <class T>
PldpSummary summary_of(const PldpResult<T>& p) {
  using N = NumTraits<T>;
  PldpSummary out;
  out.unbounded = p.unbounded;
  if constexpr (N::kExact) {
    if (!p.unbounded) {
      out.ratio_exact = p.ratio;
      out.ratio = interval_from(p.ratio);
    }
    out.bound_exact = p.bound;
    out.bound = interval_from(p.bound);
    out.w_high = p.w_high;
    out.w_low = p.w_low;
  } else {
    if (!p.unbounded) out.ratio = p.ratio;
    out.bound = p.bound;
    out.w_high = to_rational(midpoint_of(p.w_high));
    out.w_low = to_rational(midpoint_of(p.w_low));
  }
  out.output = p.output == 1 ? "c+r*alpha" : "c-r*alpha";
  out.attained = p.attained;
  return out;
}
template PldpSummary summary_of(const PldpResult<Rational>&);
template PldpSummary summary_of(const PldpResult<Interval>&);

std::unique_ptr<LayerSampler> LdpMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<LdpqLayerSampler>(layer);
}

std::unique_ptr<LayerCheck> LdpMechanism::check(const MechanismConfig& config, const Geometry& g) const {
  return std::make_unique<LdpCheck>(config, g);
}

std::optional<std::vector<Atom>> LdpMechanism::law(const CoordinateSetting& s, const Rational& w) const {
  if (!s.budget.exact()) return std::nullopt;  // an irrational α: the law is not rational
  check_weight("w", w, s.center, s.radius);
  const Rational alpha = s.budget.alpha_exact();
  const Rational q = ldpq_q(alpha, s.center, s.radius, w);
  const Rational level = ldpq_level(alpha, s.radius);
  return std::vector<Atom>{{Rational(s.center + level), q}, {Rational(s.center - level), Rational(1 - q)}};
}

std::optional<Interval> LdpMechanism::mse(const CoordinateSetting& s, const Rational& w) const {
  check_weight("w", w, s.center, s.radius);
  if (s.budget.exact()) return interval_from(ldpq_mse(s.budget.alpha_exact(), s.center, s.radius, w));
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return ldpq_mse(s.budget.alpha_interval(), s.center, s.radius, w);
}

std::optional<PldpSummary> LdpMechanism::pldp(const CoordinateSetting& s) const {
  if (s.budget.exact()) return summary_of(ldpq_pldp(s.budget.alpha_exact(), s.center, s.radius));
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return summary_of(ldpq_pldp(s.budget.alpha_interval(), s.center, s.radius));
}

std::unique_ptr<Mechanism> make_ldp() { return std::make_unique<LdpMechanism>(); }

}  // namespace corbin::fl
