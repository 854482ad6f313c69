#include "corbin/fl/mechanisms/rqm.hpp"

#include "corbin/fl/mechanism.hpp"
#include "corbin/quantizer/rqm.hpp"

namespace corbin::fl {
namespace {

/// The sampler of a layer: D exact for an exact budget, an enclosure otherwise.
std::shared_ptr<RqmSampler> make_sampler(unsigned m, const Budget& budget, const Geometry& g, const Key& key,
                                         std::uint32_t stream) {
  const Rational c = to_rational(g.c), r = to_rational(g.r);
  if (budget.exact())
    return std::make_shared<RqmSampler>(m, kRqmKeep, rqm_delta_ratio(budget.exp_eps_exact(), m, kRqmKeep), c, r, key,
                                        stream);
  PrecisionScope scope(128);
  return std::make_shared<RqmSampler>(m, kRqmKeep, rqm_delta_ratio(budget.exp_eps_interval(), m, kRqmKeep), c, r, key,
                                      stream);
}

class RqmLayer : public LayerSampler {
 public:
  RqmLayer(const LayerRound& layer, unsigned m) : layer_(layer), m_(m) {}
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override {
    for (std::size_t k = 0; k < clients.size(); ++k)
      make_sampler(m_, layer_.config.budget, layer_.g,
                   round_secret(layer_.config, layer_.round, clients[k], "private coins"), layer_.stream)
          ->sample(inputs[k], outputs[k], layer_.size);
  }

 private:
  LayerRound layer_;
  unsigned m_;
};

}  // namespace

std::string RqmMechanism::summary() const {
  return "RQM (Youn et al. 2023), m = " + std::to_string(m_) +
         " levels: stochastic rounding between c ± r(1 + D)" + (m_ == 3 ? " and c (kept w.p. 1/2)" : "") +
         ", a float (the authors' code)";
}

std::unique_ptr<LayerSampler> RqmMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<RqmLayer>(layer, m_);
}

std::unique_ptr<LayerCheck> RqmMechanism::check(const MechanismConfig& config, const Geometry& g) const {
  const auto sampler = make_sampler(m_, config.budget, g, Key{}, 0);  // its law does not depend on the key
  return std::make_unique<AloneLawCheck>(g, [sampler](float w) { return sampler->fixed_point_law(w).atoms; });
}

std::optional<std::vector<Atom>> RqmMechanism::law(const CoordinateSetting& s, const Rational& w) const {
  if (!s.budget.exact()) return std::nullopt;
  return rqm_law(m_, kRqmKeep, rqm_delta_ratio(s.budget.exp_eps_exact(), m_, kRqmKeep), s.center, s.radius, w).atoms;
}

std::optional<Interval> RqmMechanism::mse(const CoordinateSetting& s, const Rational& w) const {
  if (s.budget.exact())
    return interval_from(rqm_mse(m_, kRqmKeep, rqm_delta_ratio(s.budget.exp_eps_exact(), m_, kRqmKeep), s.center,
                                 s.radius, w));
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return rqm_mse(m_, kRqmKeep, rqm_delta_ratio(s.budget.exp_eps_interval(), m_, kRqmKeep), s.center, s.radius, w);
}

std::optional<std::vector<Rational>> RqmMechanism::mse_quadratic_pieces(const CoordinateSetting& s) const {
  if (m_ == 2) return range_ends(s);
  return std::vector<Rational>{Rational(s.center - s.radius), s.center, Rational(s.center + s.radius)};
}

std::optional<PldpSummary> RqmMechanism::pldp(const CoordinateSetting& s) const {
  if (s.budget.exact()) {
    const Rational x = s.budget.exp_eps_exact();
    return summary_of(rqm_pldp(m_, kRqmKeep, rqm_delta_ratio(x, m_, kRqmKeep), s.center, s.radius, x));
  }
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const Interval x = s.budget.exp_eps_interval();
  return summary_of(rqm_pldp(m_, kRqmKeep, rqm_delta_ratio(x, m_, kRqmKeep), s.center, s.radius, x));
}

std::unique_ptr<Mechanism> make_rqm(unsigned m) { return std::make_unique<RqmMechanism>(m); }

}  // namespace corbin::fl
