#include "corbin/fl/mechanisms/pbm.hpp"

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/worst_case/lone_clients.hpp"
#include "corbin/quantizer/pbm.hpp"

namespace corbin::fl {
namespace {

/// θ exactly when e^(ε/m) is rational (e^ε rational and a perfect m-th power), else none.
std::optional<Rational> exact_theta(const Budget& budget, unsigned m) {
  if (!budget.exact()) return std::nullopt;
  try {
    return pbm_theta_exact(budget.exp_eps_exact(), m);  // θ itself: rational iff the root is
  } catch (const invalid_argument&) {
    return std::nullopt;
  }
}

Interval theta_interval(const Budget& budget, unsigned m) {
  return pbm_theta_from_root(Interval(exp(log(budget.exp_eps_interval()) / interval_from(BigInt(m)))));
}

class PbmLayer : public LayerSampler {
 public:
  PbmLayer(const LayerRound& layer, unsigned m) : layer_(layer), m_(m) {}
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override {
    const Rational c = to_rational(layer_.g.c), r = to_rational(layer_.g.r);
    const auto theta = exact_theta(layer_.config.budget, m_);
    PrecisionScope scope(128);
    for (std::size_t k = 0; k < clients.size(); ++k) {
      const Key key = round_secret(layer_.config, layer_.round, clients[k], "private coins");
      if (theta)
        PbmSampler(*theta, m_, c, r, key, layer_.stream).sample(inputs[k], outputs[k], layer_.size);
      else
        PbmSampler(theta_interval(layer_.config.budget, m_), m_, c, r, key, layer_.stream)
            .sample(inputs[k], outputs[k], layer_.size);
    }
  }

 private:
  LayerRound layer_;
  unsigned m_;
};

}  // namespace

std::string PbmMechanism::summary() const {
  return "PBM (Chen et al. 2022), m = " + std::to_string(m_) +
         ": Binomial(m, 1/2 + θ(w − c)/r) decoded to a float, θ = tanh(ε/(2m))/2 (the authors' code)";
}

std::unique_ptr<LayerSampler> PbmMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<PbmLayer>(layer, m_);
}

std::unique_ptr<LayerCheck> PbmMechanism::check(const MechanismConfig& config, const Geometry& g) const {
  // The law each client's sampler realises (its thresholds are fixed-point; the key does not matter).
  const Rational c = to_rational(g.c), r = to_rational(g.r);
  const auto theta = exact_theta(config.budget, m_);
  PrecisionScope scope(128);
  auto sampler = theta ? std::make_shared<PbmSampler>(*theta, m_, c, r, Key{}, 0)
                       : std::make_shared<PbmSampler>(theta_interval(config.budget, m_), m_, c, r, Key{}, 0);
  return std::make_unique<AloneLawCheck>(g, [sampler](float w) { return sampler->fixed_point_law(w).atoms; });
}

std::optional<std::vector<Atom>> PbmMechanism::law(const CoordinateSetting& s, const Rational& w) const {
  const auto theta = exact_theta(s.budget, m_);
  if (!theta) return std::nullopt;
  return pbm_law(*theta, m_, s.center, s.radius, w).atoms;
}

std::optional<Accountant> PbmMechanism::round_accountant(const CoordinateSetting& s, std::size_t n,
                                                         const PldLimits& limits, std::string& why_not) const {
  const auto theta = exact_theta(s.budget, m_);
  if (!theta) {
    why_not = "it has no exact law at this budget (e^(ε/" + std::to_string(m_) + ") is not rational)";
    return std::nullopt;
  }
  const Rational low = Rational(1, 2) - *theta, high = Rational(1, 2) + *theta;  // p(c − r), p(c + r)
  const ScalarLaw<Rational> levels = pbm_law(*theta, m_, s.center, s.radius, s.center);  // the m + 1 values
  const std::vector<Rational> ends = range_ends(s);
  const std::string r = to_string(s.radius);
  std::vector<ExtremeLaw> vertices;
  for (unsigned a = m_ + 1; a-- > 0;) {  // a trials at p(c − r): from the input c − r up to c + r
    std::vector<Rational> prob{Rational(1)};  // P(Z = z) after the trials so far
    for (unsigned t = 0; t < m_; ++t) {
      const Rational& p = t < a ? low : high;
      std::vector<Rational> next(prob.size() + 1, Rational(0));
      for (std::size_t z = 0; z < prob.size(); ++z) {
        next[z] += prob[z] * (1 - p);
        next[z + 1] += prob[z] * p;
      }
      prob = std::move(next);
    }
    ExtremeLaw v;
    for (std::size_t z = 0; z <= m_; ++z) v.atoms.push_back({levels.atoms[z].value, prob[z]});
    v.attained = a == 0 || a == m_;
    v.input = a == m_ ? input_words(s, ends.front())
              : a == 0 ? input_words(s, ends.back())
                       : "no input (a vertex: " + std::to_string(a) + " of " + std::to_string(m_) + " trials at p(c - " + r +
                             "), the rest at p(c + " + r + "))";
    vertices.push_back(std::move(v));
  }
  return lone_clients_round(vertices, n, s.center, s.relation, s.dropout, s.coordinates, limits);
}

std::optional<Interval> PbmMechanism::mse(const CoordinateSetting& s, const Rational& w) const {
  if (const auto theta = exact_theta(s.budget, m_)) return interval_from(pbm_mse(*theta, m_, s.center, s.radius, w));
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return pbm_mse(theta_interval(s.budget, m_), m_, s.center, s.radius, w);
}

std::optional<PldpSummary> PbmMechanism::pldp(const CoordinateSetting& s) const {
  if (const auto theta = exact_theta(s.budget, m_))
    return summary_of(pbm_pldp(*theta, m_, s.center, s.radius, s.budget.exp_eps_exact()));
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return summary_of(pbm_pldp(theta_interval(s.budget, m_), m_, s.center, s.radius, s.budget.exp_eps_interval()));
}

std::unique_ptr<Mechanism> make_pbm(unsigned m) { return std::make_unique<PbmMechanism>(m); }

}  // namespace corbin::fl
