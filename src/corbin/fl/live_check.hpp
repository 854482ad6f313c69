#pragma once
// The theorems checked live, each round: on a seeded sample of coordinates per layer, the exact
// expected squared error of the aggregate (from the exact law the samplers realise: fixed-point
// probabilities n/2^32 and the integer CorBinQ kernel's joint law), the empirical squared error
// of the same coordinates, and the z-score of their difference. A |z| that grows across rounds
// says the implementation and the theory disagree. Also the theorems' bound (Thm 2/3 for
// d → ∞, plus Thm 1's gap bound per pair at finite d) on the same coordinates.

#include <cstddef>
#include <optional>
#include <vector>

#include "corbin/fl/mechanism.hpp"

namespace corbin::fl {

struct LiveCheck {
  std::size_t coordinates = 0;
  double mse_expected = 0;   ///< mean over the sampled coordinates of E[e²] (exact per coordinate)
  double mse_empirical = 0;  ///< mean over the same coordinates of e²
  double z = 0;              ///< (Σ e² − Σ E[e²]) / sqrt(Σ Var(e²))
  std::optional<double> mse_bound;  ///< the theorems' bound on E[e²], averaged the same way (none for CQ)
};

/// The coordinates checked in a round: per layer, in layer order, the first min(per_layer, size)
/// of a permutation seeded by (seed, round, layer).
std::vector<std::size_t> live_check_coordinates(const std::vector<Layer>& layers, std::uint64_t seed,
                                                std::uint64_t round, std::size_t per_layer = 64);

/// The clients' weights at the checked coordinates, wherever the weights are (host vectors here;
/// rows of a device tensor in the batched round): at(i, s) is client i's weight at coordinates[s].
struct SampledWeights {
  std::vector<std::size_t> coordinates;
  std::vector<float> values;  ///< clients × coordinates, row-major
  float at(std::size_t client, std::size_t s) const { return values[client * coordinates.size() + s]; }
};
SampledWeights sample_weights(const std::vector<std::vector<float>>& clients, std::vector<std::size_t> coordinates);

/// The check on sampled weights (coordinates as live_check_coordinates gives them). Raises
/// invalid_argument for the vanilla mechanism (no randomness to check).
LiveCheck live_check(const SampledWeights& weights, const std::vector<float>& global, const std::vector<Layer>& layers,
                     const MechanismConfig& config, const RoundResult& result);

/// The same on the clients' full weight vectors.
LiveCheck live_check(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                     const std::vector<Layer>& layers, const MechanismConfig& config, const RoundResult& result,
                     std::uint64_t round, std::size_t per_layer = 64);

}  // namespace corbin::fl
