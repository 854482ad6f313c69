#include "corbin/fl/mechanisms/noise.hpp"

#include <cmath>

#include "corbin/fl/mechanism.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/worst_case/gaussian_pld.hpp"
#include "corbin/privacy/worst_case/laplace_sum.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/utility/worst_case.hpp"

namespace corbin::fl {
namespace {

class NoiseSampler : public LayerSampler {
 public:
  NoiseSampler(const LayerRound& layer, double scale, bool gaussian)
      : layer_(layer), scale_(scale), gaussian_(gaussian) {}
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override {
    for (std::size_t k = 0; k < clients.size(); ++k) {
      const auto u = uniforms(round_secret(layer_.config, layer_.round, clients[k], "noise"), layer_.stream,
                              2 * layer_.size);
      for (std::size_t t = 0; t < layer_.size; ++t) {
        const double noise = gaussian_ ? gaussian_draw(u[2 * t], u[2 * t + 1]) : laplace_draw(u[2 * t]);
        outputs[k][t] = static_cast<float>(clip(layer_.g, inputs[k][t]) + scale_ * noise);
      }
    }
  }

 private:
  LayerRound layer_;
  double scale_;
  bool gaussian_;
};

class NoiseCheck : public LayerCheck {
 public:
  NoiseCheck(double scale, bool gaussian) {
    const double s2 = scale * scale;
    var_ = (gaussian ? 1 : 2) * s2;
    m4_ = (gaussian ? 3 : 24) * s2 * s2;
  }
  CoordinateCheck coordinate(std::span<const float> alone, std::span<const std::pair<float, float>>) const override {
    const std::vector<ErrorMoments> parts(alone.size(), ErrorMoments{Rational(0), to_rational(var_), to_rational(m4_)});
    CoordinateCheck c = combine(parts, alone.size());
    const double k = static_cast<double>(alone.size());
    c.bound = k * var_ / (k * k);
    return c;
  }

 private:
  double var_, m4_;
};

/// ε as a rational for the calibration: given, or the lower end of its enclosure (a smaller ε
/// asks for more noise, so the calibration never understates the privacy loss).
Rational calibration_eps(const Budget& budget) {
  if (budget.kind == Budget::Kind::eps) return budget.value;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  return to_rational(lower_of(budget.eps_interval()));
}

/// The Laplace scale the sampler uses: b = Δ/ε rounded up to a double (more noise, never less).
double laplace_b(const Rational& eps, const Rational& sensitivity) {
  const Rational b = laplace_scale(eps, sensitivity);
  const double nearest = to_double(b);
  return to_rational(nearest) >= b ? nearest : std::nextafter(nearest, HUGE_VAL);
}

}  // namespace

std::optional<Accountant> NoiseMechanism::round_accountant(const CoordinateSetting& s, std::size_t n,
                                                           const PldLimits& limits, std::string& why_not) const {
  check_radius(s.radius);
  if (s.relation == Neighbour::remove_one) {
    const auto [far_input, far_words] = far_extreme(s.center, s.radius);
    const Rational far = abs(far_input);
    if (!gaussian_) {
      if (n > kMaxLaplaceSumClients) {
        why_not = "used under remove one with at most " + std::to_string(kMaxLaplaceSumClients) +
                  " clients (the law of the sum of their Laplace noise is computed that far)";
        return std::nullopt;
      }
      // The b the sampler uses, so that the lower end is the mechanism's as run.
      const Rational b = to_rational(laplace_b(calibration_eps(s.budget), 2 * s.radius));
      if (far > Rational(static_cast<long>(kMaxLaplaceRemoveShift)) * b) {
        why_not = "used under remove one with |c| + r at most 10^6 times the noise's scale b";
        return std::nullopt;
      }
      if (s.dropout > 0)
        return laplace_remove_dropout_accountant(b, s.center, s.radius, n, s.dropout, s.coordinates, limits);
      return laplace_remove_accountant(b, far, n, far_words, limits);
    }
    PrecisionScope scope(std::max(working_precision_bits(), 256u));
    // The σ the sampler uses (rounded up to a double), so that the lower end is the mechanism's
    // as run.
    const Real sigma(agm_sigma_double(calibration_eps(s.budget), s.delta, 2 * s.radius));
    if (to_double(far) > kMaxRemoveShift * sigma.convert_to<double>() * (1 - 1e-9)) {
      why_not = "used under remove one with |c| + r at most " + std::to_string(static_cast<int>(kMaxRemoveShift)) +
                " times the noise's sigma (client 1's input is then seen whole: eps above 5e5)";
      return std::nullopt;
    }
    if (s.dropout > 0)
      return gaussian_remove_dropout_accountant(sigma, s.center, s.radius, n, s.dropout, s.coordinates, limits);
    return gaussian_remove_accountant(sigma, far, n, far_words, limits);
  }
  const Rational sensitivity = 2 * s.radius;
  if (!gaussian_) {
    if (n > kMaxLaplaceSumClients) {
      why_not = "the law of the sum of n clients' Laplace noise is computed for at most " +
                std::to_string(kMaxLaplaceSumClients) + " clients (one client's own Laplace mechanism bounds it above: ε_p per use)";
      return std::nullopt;
    }
    // The b the sampler uses, so that the lower end is the mechanism's as run.
    const Rational b = to_rational(laplace_b(calibration_eps(s.budget), sensitivity));
    if (s.dropout > 0)
      return noise_dropout_accountant(
          [&](unsigned long survivors) { return laplace_sum_plds(b, sensitivity, survivors, limits); }, n, s.dropout,
          s.coordinates, "Laplace(b)", limits);
    return laplace_sum_accountant(b, sensitivity, n, limits);
  }
  PrecisionScope scope(std::max(working_precision_bits(), 256u));
  const Real sigma = agm_sigma(calibration_eps(s.budget), s.delta, sensitivity);
  if (s.dropout > 0)
    return noise_dropout_accountant(
        [&](unsigned long survivors) { return gaussian_sum_plds(sigma, sensitivity, survivors, limits); }, n,
        s.dropout, s.coordinates, "N(0, sigma^2)", limits);
  return gaussian_sum_accountant(sigma, sensitivity, n, limits);
}

std::string NoiseMechanism::summary() const {
  return gaussian_ ? "Gaussian: N(0, σ²) added per coordinate, analytic σ at (ε, δ), sensitivity 2r, a float"
                   : "Laplace: Laplace(b) added per coordinate, b = 2r/ε, a float";
}

double NoiseMechanism::scale(const MechanismConfig& config, const Geometry& g) const {
  const Rational eps = calibration_eps(config.budget);
  const Rational sensitivity = to_rational(2 * g.r);
  if (gaussian_) return agm_sigma_double(eps, config.delta, sensitivity);
  return laplace_b(eps, sensitivity);
}

std::unique_ptr<LayerSampler> NoiseMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<NoiseSampler>(layer, scale(layer.config, layer.g), gaussian_);
}

std::unique_ptr<LayerCheck> NoiseMechanism::check(const MechanismConfig& config, const Geometry& g) const {
  return std::make_unique<NoiseCheck>(scale(config, g), gaussian_);
}

std::optional<Interval> NoiseMechanism::mse(const CoordinateSetting& s, const Rational& w) const {
  check_weight("w", w, s.center, s.radius);
  const Rational eps = calibration_eps(s.budget);
  const Rational sensitivity = 2 * s.radius;
  if (gaussian_) {
    const Real sigma = agm_sigma(eps, s.delta, sensitivity);
    return Interval(interval_hull(sigma, sigma) * interval_hull(sigma, sigma));
  }
  const Rational b = laplace_scale(eps, sensitivity);
  return interval_from(Rational(2 * b * b));
}

std::optional<Interval> NoiseMechanism::worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const {
  if (n == 0) throw invalid_argument("n", "0", "at least 1 client");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const auto per_client = mse(s, s.center);  // the same at every w
  return worst_mean_mse<Interval>({{n, 1, *per_client}}, n);
}

std::unique_ptr<Mechanism> make_gaussian() { return std::make_unique<NoiseMechanism>(true); }
std::unique_ptr<Mechanism> make_laplace() { return std::make_unique<NoiseMechanism>(false); }

}  // namespace corbin::fl
