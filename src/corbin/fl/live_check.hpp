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

/// Raises invalid_argument for the vanilla mechanism (no randomness to check).
LiveCheck live_check(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                     const std::vector<Layer>& layers, const MechanismConfig& config, const RoundResult& result,
                     std::uint64_t round, std::size_t per_layer = 64);

}  // namespace corbin::fl
