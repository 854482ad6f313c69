#pragma once
// The federated run's checkpoint in DIR/checkpoint/: what `--resume` needs to continue a run
// exactly where it stopped. Every round is recomputable from (seed, round), so the state is
// small: the global and the best-validation models (raw little-endian float32), the round to run
// next and the patience counters, and the settings that determine the run, which a resumed run
// must repeat. Files are written to a temporary name and renamed, so a run killed mid-write
// leaves the previous checkpoint intact.

#include <filesystem>
#include <string>
#include <vector>

#include "report.hpp"

namespace corbin::cli {

struct FlCheckpoint {
  Json settings;                 ///< options that determine the run (compared on --resume)
  unsigned long next_round = 0;  ///< rounds done
  double best_validation = -1;
  unsigned long best_round = 0, since_best = 0, reloads = 0;
  std::vector<float> global, best;
};

void save_checkpoint(const std::filesystem::path& out, const FlCheckpoint& state);

/// Raises invalid_argument naming --resume when DIR has no readable checkpoint, or when its
/// settings differ from `settings` (the message names the first differing option).
FlCheckpoint load_checkpoint(const std::filesystem::path& out, const Json& settings, std::size_t parameters);

}  // namespace corbin::cli
