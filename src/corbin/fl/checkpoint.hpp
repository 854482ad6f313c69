#pragma once
// The federated run's checkpoint: what a resumed run needs to continue exactly where the last one
// stopped. Every round is recomputable from (seed, round), so the state is small: the server's
// state between rounds (the global and best-validation models as raw little-endian float32, the
// round to run next and the patience counters), the settings that determine the run (a resumed
// run must repeat them), and a checksum of the round log's lines it covers.
//
// Atomic as a whole: each checkpoint is a directory DIR/checkpoint.<round>, written under a
// temporary name, synced and renamed into place; then the symbolic link DIR/checkpoint is
// replaced (one rename) to point at it, and only then is the previous one removed. A kill at any
// instant leaves DIR/checkpoint naming a complete checkpoint, old or new. The test hook
// CORBIN_TEST_ABORT_AT=<step>[@<rounds>] (a step name of kCheckpointSteps, optionally only in the
// checkpoint that covers <rounds> rounds) ends the process there with status 86.
//
// Errors name `checkpoint` (the one being resumed) and `out` (the run's directory).

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace corbin::fl {

/// The settings that determine a run, name -> canonical value (numbers as exact "p/q"), in the
/// order they are reported.
using RunSettings = std::vector<std::pair<std::string, std::string>>;

/// What the server carries from one round to the next (fl/server.hpp).
struct ServerState {
  unsigned long next_round = 0;  ///< rounds done
  double best_validation = -1;
  unsigned long best_round = 0, since_best = 0, reloads = 0;
  std::vector<float> global, best;
};

/// The checksum of the round log's lines: the previous checksum extended by `line` and a newline.
std::uint64_t extend_log_checksum(std::uint64_t checksum, const std::string& line);
constexpr std::uint64_t kEmptyLogChecksum = 14695981039346656037ull;

struct Checkpoint {
  RunSettings settings;  ///< compared when the run is resumed
  ServerState server;
  std::uint64_t log_checksum = kEmptyLogChecksum;  ///< over the first server.next_round log lines
};

/// The steps of save_checkpoint, in order, at which the abort hook can stop it.
constexpr std::array<const char*, 5> kCheckpointSteps = {"made", "models", "state", "renamed", "linked"};

void save_checkpoint(const std::filesystem::path& out, const Checkpoint& state);

/// Raises invalid_argument("checkpoint") when DIR has no readable checkpoint, or when its settings
/// differ from `settings` (the message names the first differing setting; a key that only one
/// side has differs too).
Checkpoint load_checkpoint(const std::filesystem::path& out, const RunSettings& settings, std::size_t parameters);

}  // namespace corbin::fl
