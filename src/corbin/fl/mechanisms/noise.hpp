#pragma once
// The paper's noise baselines: a client adds N(0, σ²) (the analytic Gaussian, at the budget's ε
// and δ) or Laplace(b) noise to each clipped weight, calibrated per layer at sensitivity 2r
// (privacy/formulas/baselines.hpp) and sent as a float. Continuous laws: no exact law or PLDP ratio here;
// the live check takes E X² = σ², E X⁴ = 3σ⁴ (Gaussian) or 2b², 24b⁴ (Laplace).

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class NoiseMechanism : public Mechanism {
 public:
  explicit NoiseMechanism(bool gaussian) : gaussian_(gaussian) {}
  std::string name() const override { return gaussian_ ? "gaussian" : "laplace"; }
  std::string summary() const override;
  DeviceKernel device_kernel() const override {
    return gaussian_ ? DeviceKernel::gaussian_noise : DeviceKernel::laplace_noise;
  }
  /// The Gaussian's σ is calibrated at (ε, δ); the Laplace's b at ε alone.
  bool reads(SettingParameter p) const override {
    return p == SettingParameter::delta ? gaussian_ : Mechanism::reads(p);
  }
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  /// σ² or 2b² at sensitivity 2r, whatever w (the noise is unbiased and does not depend on it).
  std::optional<Interval> mse(const CoordinateSetting& s, const Rational& w) const override;
  /// Noise of mean 0 on an input inside the range (clipping leaves it): the aggregate MSE at
  /// given inputs is then the registry's Σ mse/n².
  bool unbiased() const override { return true; }
  /// σ²/n or 2b²/n: n independent unbiased clients of constant MSE. The enclosure is that of the
  /// calibrated σ (agm_sigma: it provably meets δ and is within 10^−30 relative of the smallest σ
  /// that does), and of b at the lower end of ε's enclosure: the MSE of noise that is certainly
  /// private, never of less noise. So privacy is not traded for utility in a comparison, and the
  /// MSE exceeds the least private-enough noise's by at most that tolerance.
  std::optional<Interval> worst_aggregate_mse(const CoordinateSetting& s, std::size_t n) const override;
  /// Continuous noise has no finite PLDP ratio over outputs; its guarantee is (ε, δ)-DP
  /// (Gaussian) or ε-DP (Laplace) at sensitivity 2r.
  std::optional<PldpSummary> pldp(const CoordinateSetting&) const override { return std::nullopt; }
  /// The Gaussian's round in closed form (privacy/worst_case/gaussian_pld.hpp), σ as the room calibrates
  /// it, under either relation; the Laplace's from the exact law of the sum of n Laplace laws
  /// (privacy/worst_case/laplace_sum.hpp), b as the sampler uses it, for n <= kMaxLaplaceSumClients,
  /// under replace one (none otherwise, saying why).
  std::optional<Accountant> round_accountant(const CoordinateSetting& s, std::size_t n, const PldLimits& limits,
                                             std::string& why_not) const override;
  /// The noise's scale for a layer (σ or b), rounded up.
  double scale(const MechanismConfig& config, const Geometry& g) const;
  std::optional<double> noise_scale(const MechanismConfig& config, const Geometry& g) const override {
    return scale(config, g);
  }

 private:
  bool gaussian_;
};

std::unique_ptr<Mechanism> make_gaussian();
std::unique_ptr<Mechanism> make_laplace();

}  // namespace corbin::fl
