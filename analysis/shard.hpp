#pragma once
// Sharded runs of `corbin sweep` and `corbin audit`, joined by `corbin merge`.
//
// A run's work is a list of items numbered 0, 1, …, items − 1 in the order the unsharded command
// produces them (the sweep's grid points, the audit's claims). Shard i of N (0 <= i < N, counted
// from 0) computes the items k with k mod N = i — round robin, so that the expensive end of a
// grid is spread over the shards — and writes a shard file: the run's identity (the command, the
// toolkit's version and every argument), i, N, the number of items and each held item's
// result, with a SHA-256 over all of it. Shard files are ordered JSON with nothing from the clock or the
// machine in them: the same run gives the same bytes. `corbin merge` checks that the files are
// exactly the N shards of one run and hands back every item's result in order; the command then
// writes what its unsharded run writes, byte for byte.
//
// Without --shard, a Slurm array task shards by its environment: SLURM_ARRAY_TASK_COUNT is N and
// i = (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP (MIN 0 and STEP 1 when
// unset), so --array=0-3, 1-4 and 0-9:3 each give shards 0..N−1. `--shard none` runs unsharded in
// an array task.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corbin::cli {

using Json = nlohmann::ordered_json;

/// Shard `index` of `count`.
struct Shard {
  std::size_t index = 0, count = 1;
  /// Whether work item `item` is this shard's (round robin).
  bool holds(std::size_t item) const { return item % count == index; }
  std::string name() const;  ///< "i/N"
};

/// The most shards a run may have (a bound on N against typos such as 0/10000000000).
constexpr std::size_t kMaxShards = 1'000'000;

/// "i/N" -> the shard; invalid_argument naming --shard unless 0 <= i < N <= kMaxShards.
Shard parse_shard(const std::string& text);

/// The shard `command` runs: --shard's `text` when `given` ("none": unsharded), else the Slurm
/// array task's (one line on stderr says so), else none. Inconsistent Slurm variables raise
/// invalid_argument naming the variable. `env` reads the environment (std::getenv; tests pass
/// their own).
std::optional<Shard> shard_to_run(const std::string& text, bool given, const std::string& command,
                                  const std::function<const char*(const char*)>& env);

/// A shard file's content.
struct ShardFile {
  Json run =
      Json::object();  ///< {"command", "corbin" (version), "arguments": {...}}: the run's identity
  Shard shard;
  std::size_t items = 0;  ///< work items of the whole run
  Json shared =
      Json::object();  ///< what every shard of the run carries alike (the sweep's CSV header)
  std::vector<std::pair<std::size_t, Json>>
      results;  ///< the items held, ascending, with their results
};

/// The largest shard file read (a sweep's shard holds its CSV rows; this is far above any grid).
constexpr std::size_t kMaxShardBytes = std::size_t{256} << 20;

/// The identity of a run of `command` with `arguments` (option -> value as given).
Json run_identity(const std::string& command, const Json& arguments);

/// The shard file's text: JSON, one item per line, with "sha256": the SHA-256 of the document
/// without that key. The hash covers everything merge reads (the run, i, N, the items, the shared
/// part, every result), so an edit is caught; it is a checksum, not a signature: whoever edits a
/// file on purpose can recompute it (sign the files where that matters).
std::string shard_text(const ShardFile& file);

/// Checks a shard file's text `bytes` (`where` names it in messages): at most kMaxShardBytes,
/// nested at most io::kMaxNesting deep (checked before parsing), its own keys only, its sha256
/// matching, written by this corbin's version, consistent in itself (i < N, exactly the items
/// shard i holds). invalid_argument naming `where` otherwise.
ShardFile parse_shard_file(std::string_view bytes, const std::string& where);

/// parse_shard_file on the regular file at `path`; invalid_argument naming it when it cannot be read.
ShardFile read_shard(const std::filesystem::path& path);

/// The shards of one run, checked: every file from the same run (same identity and N), every
/// i in [0, N) present exactly once. Returns the run's shared part and every item's result in
/// item order. Raises invalid_argument naming the shard or the file otherwise ("shard 2/4" is
/// missing; given twice; a file from a different run naming the argument that differs).
struct MergedRun {
  Json run, shared;
  std::vector<Json> results;
  std::vector<std::string> sources;  ///< the file each result came from (for messages)
  std::string first_file;            ///< the first file given (for messages about the run)
};
MergedRun merge_shards(const std::vector<std::filesystem::path>& paths);

}  // namespace corbin::cli
