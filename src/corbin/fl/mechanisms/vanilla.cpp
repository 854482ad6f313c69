#include "corbin/fl/mechanisms/vanilla.hpp"

#include <algorithm>

#include "corbin/quantizer/ldpq.hpp"

namespace corbin::fl {
namespace {

class VanillaSampler : public LayerSampler {
 public:
  explicit VanillaSampler(std::size_t size) : size_(size) {}
  void alone(std::span<const std::size_t> clients, std::span<const float* const> inputs,
             std::span<float* const> outputs) const override {
    for (std::size_t k = 0; k < clients.size(); ++k) std::copy(inputs[k], inputs[k] + size_, outputs[k]);
  }

 private:
  std::size_t size_;
};

}  // namespace

std::unique_ptr<LayerSampler> VanillaMechanism::sampler(const LayerRound& layer) const {
  return std::make_unique<VanillaSampler>(layer.size);
}

std::optional<std::vector<Atom>> VanillaMechanism::law(const CoordinateSetting& s, const Rational& w) const {
  check_weight("w", w, s.center, s.radius);
  return std::vector<Atom>{{w, Rational(1)}};
}

std::unique_ptr<Mechanism> make_vanilla() { return std::make_unique<VanillaMechanism>(); }

}  // namespace corbin::fl
