#pragma once
// LDP-FL's mechanism: every survivor quantizes alone with LDPQ (Alg. 1), one bit a coordinate.
// The round samples the fixed-point law of quantizer/sampler.hpp, and the live check takes the
// exact moments of that same law; CorBin-FL's room (corbin.hpp) extends this one with pairs.

#include <memory>

#include "corbin/fl/registry.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::fl {

class LdpMechanism : public Mechanism {
 public:
  std::string name() const override { return "ldp"; }
  std::string summary() const override { return "LDP-FL: every client quantizes alone with LDPQ (Alg. 1), one bit"; }
  unsigned bits_per_coordinate() const override { return 1; }
  DeviceKernel device_kernel() const override { return DeviceKernel::quantizer; }
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::unique_ptr<LayerCheck> check(const MechanismConfig& config, const Geometry& g) const override;
  std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const override;
  /// (rα)² − (w − c)² (ldpq_mse), enclosed for an irrational α.
  std::optional<Interval> mse(const CoordinateSetting& s, const Rational& w) const override;
  std::optional<PldpSummary> pldp(const CoordinateSetting& s) const override;
  /// P(c + rα) is affine in w and LDPQ is unbiased: the worst aggregate MSE is the registry's
  /// default, (rα)²/n (at w = c).
  bool law_affine_in_w() const override { return true; }
  bool unbiased() const override { return true; }
};

std::unique_ptr<Mechanism> make_ldp();

/// LDPQ's sampler for a layer: each lone client samples the fixed-point law with its own coins.
/// CorBin-FL's sampler extends it with pairs.
class LdpqLayerSampler : public LayerSampler {
 public:
  explicit LdpqLayerSampler(const LayerRound& layer);
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override;

 protected:
  Key coins(std::size_t client) const;
  LayerRound layer_;
  FixedPointLaw law_;
};

/// The LDPQ part shared with the pair mechanisms: the sampler's law for the layer, and one lone
/// client's error moments at a raw weight under it.
struct LdpqLayer {
  LdpqLayer(const MechanismConfig& config, const Geometry& g);
  FixedPointLaw law;
  Geometry g;
  Rational plus, minus;
  double alpha, level;  ///< α, and rα: the paper's bounds use them
  ErrorMoments alone(float w) const;
};

/// A PldpResult of privacy/formulas/pldp.hpp as the registry's summary.
template <class T>
PldpSummary summary_of(const PldpResult<T>& p);

}  // namespace corbin::fl
