#pragma once
// Vanilla FedAvg: every survivor sends its weights as floats, unclipped and unobfuscated. No
// randomness, so no live check, law or privacy.

#include <memory>

#include "corbin/fl/registry.hpp"

namespace corbin::fl {

class VanillaMechanism : public Mechanism {
 public:
  std::string name() const override { return "vanilla"; }
  std::string summary() const override { return "FedAvg without privacy: the weights themselves, as floats"; }
  bool takes_budget() const override { return false; }
  bool randomised() const override { return false; }
  bool clips() const override { return false; }
  DeviceKernel device_kernel() const override { return DeviceKernel::identity; }
  std::unique_ptr<LayerSampler> sampler(const LayerRound& layer) const override;
  std::optional<std::vector<Atom>> law(const CoordinateSetting& s, const Rational& w) const override;
  /// The weight itself: unbiased, MSE 0 (a quadratic on the whole range), so its worst case is 0.
  bool unbiased() const override { return true; }
  std::optional<std::vector<Rational>> mse_quadratic_pieces(const CoordinateSetting& s) const override {
    return range_ends(s);
  }
};

std::unique_ptr<Mechanism> make_vanilla();

}  // namespace corbin::fl
