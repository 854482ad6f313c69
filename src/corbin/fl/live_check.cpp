#include "corbin/fl/live_check.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl {

std::vector<std::size_t> live_check_coordinates(const std::vector<Layer>& layers, std::uint64_t seed,
                                                std::uint64_t round, std::size_t per_layer) {
  std::vector<std::size_t> coordinates;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    const auto order = permutation(
        layer.size, derive_key(seed, "live check round " + std::to_string(round) + " layer " + std::to_string(l)));
    for (std::size_t s = 0; s < std::min(per_layer, layer.size); ++s) coordinates.push_back(layer.offset + order[s]);
  }
  return coordinates;
}

SampledWeights sample_weights(const std::vector<std::vector<float>>& clients, std::vector<std::size_t> coordinates) {
  SampledWeights out{std::move(coordinates), {}};
  for (const auto& w : clients)
    for (std::size_t t : out.coordinates) out.values.push_back(w.at(t));
  return out;
}

LiveCheck live_check(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                     const std::vector<Layer>& layers, const MechanismConfig& config, const RoundResult& result,
                     std::uint64_t round, std::size_t per_layer) {
  return live_check(sample_weights(clients, live_check_coordinates(layers, config.seed, round, per_layer)), global,
                    layers, config, result);
}

LiveCheck live_check(const SampledWeights& weights, const std::vector<float>& global, const std::vector<Layer>& layers,
                     const MechanismConfig& config, const RoundResult& result) {
  const Mechanism& mechanism = *config.mechanism;
  LiveCheck out;
  // Per layer (sequentially: this part uses MPFR's precision setting): the mechanism's terms.
  std::vector<std::unique_ptr<LayerCheck>> terms(layers.size());
  std::vector<std::size_t> layer_of(weights.coordinates.size());
  std::size_t next = 0;  // the coordinates come layer by layer
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    while (next < weights.coordinates.size() && weights.coordinates[next] >= layer.offset &&
           weights.coordinates[next] < layer.offset + layer.size)
      layer_of[next++] = l;
    terms[l] = mechanism.check(config, layer_geometry(global.data() + layer.offset, layer.size));
    if (!terms[l]) throw invalid_argument("mechanism", mechanism.name(), "a randomised mechanism for the live check");
  }
  if (next != weights.coordinates.size())
    throw invalid_argument("coordinates", "out of layer order", "as live_check_coordinates gives them");
  if (result.survivors() == 0) return out;
  // Per coordinate. (Sequential on purpose: spread over 8 threads in each of 6 runs sharing a
  // 16-core GPU machine, GMP's allocations made this 20 to 30 times slower, not faster.)
  double sum_e2 = 0, sum_expected = 0, sum_var = 0, sum_bound = 0;
  bool bounded = true;
  std::vector<float> alone;
  std::vector<std::pair<float, float>> pairs;
  for (std::size_t s = 0; s < weights.coordinates.size(); ++s) {
    const std::size_t t = weights.coordinates[s];
    alone.clear();
    pairs.clear();
    for (std::size_t i : result.alone_clients) alone.push_back(weights.at(i, s));
    for (const auto& [a, b] : result.pair_clients) pairs.emplace_back(weights.at(a, s), weights.at(b, s));
    const CoordinateCheck c = terms[layer_of[s]]->coordinate(alone, pairs);
    const double e = static_cast<double>(result.aggregate[t]) - result.clipped_mean[t];
    sum_e2 += e * e;
    sum_expected += c.expected;
    sum_var += c.variance;
    if (c.bound) sum_bound += *c.bound;
    bounded = bounded && c.bound.has_value();
  }
  out.coordinates = weights.coordinates.size();
  const double m = static_cast<double>(out.coordinates);
  out.mse_expected = sum_expected / m;
  out.mse_empirical = sum_e2 / m;
  out.z = sum_var > 0 ? (sum_e2 - sum_expected) / std::sqrt(sum_var) : 0;
  if (bounded) out.mse_bound = sum_bound / m;
  return out;
}

}  // namespace corbin::fl
