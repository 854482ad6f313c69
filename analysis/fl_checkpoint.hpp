#pragma once
// The federated run's checkpoint: what `--resume` needs to continue a run exactly where it
// stopped. Every round is recomputable from (seed, round), so the state is small: the global and
// the best-validation models (raw little-endian float32), the round to run next and the patience
// counters, the settings that determine the run (a resumed run must repeat them), and a checksum
// of the rounds.jsonl lines it covers.
//
// Atomic as a whole: each checkpoint is a directory DIR/checkpoint.<round>, written under a
// temporary name, synced and renamed into place; then the symbolic link DIR/checkpoint is
// replaced (one rename) to point at it, and only then is the previous one removed. A kill at any
// instant leaves DIR/checkpoint naming a complete checkpoint, old or new. The test hook
// CORBIN_TEST_ABORT_AT=<step>[@<rounds>] (a step name of kCheckpointSteps, optionally only in the
// checkpoint that covers <rounds> rounds) ends the process there with status 86.

#include <array>
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
  std::uint64_t log_checksum = 0;  ///< io::fnv1a chained over the first next_round lines of rounds.jsonl
  std::vector<float> global, best;
};

/// The steps of save_checkpoint, in order, at which the abort hook can stop it.
constexpr std::array<const char*, 5> kCheckpointSteps = {"made", "models", "state", "renamed", "linked"};

void save_checkpoint(const std::filesystem::path& out, const FlCheckpoint& state);

/// Raises invalid_argument naming --resume when DIR has no readable checkpoint, or when its
/// settings differ from `settings` (the message names the first differing option; a key that
/// only one side has differs too).
FlCheckpoint load_checkpoint(const std::filesystem::path& out, const Json& settings, std::size_t parameters);

/// The checksum of rounds.jsonl's lines: the previous checksum extended by `line` and a newline.
std::uint64_t extend_log_checksum(std::uint64_t checksum, const std::string& line);
constexpr std::uint64_t kEmptyLogChecksum = 14695981039346656037ull;

}  // namespace corbin::cli
