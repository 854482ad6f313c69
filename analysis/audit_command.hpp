#pragma once
// `corbin audit`'s options and output, shared with `corbin merge`, which writes a sharded audit's
// report from its shards exactly as the unsharded audit writes it.

#include <CLI/CLI.hpp>
#include <string>

#include "shard.hpp"

namespace corbin::cli {

/// Where and how the audit writes its report (the options `corbin merge` takes too).
struct AuditOutput {
  std::string out = "reports";
  bool no_figures = false;
  std::string python = "/usr/bin/python3";
  CLI::Option *out_option = nullptr, *no_figures_option = nullptr, *python_option = nullptr;
  void add(CLI::App& app);
  bool given() const;  ///< whether any of its options was given
};

/// The report of a sharded audit from its shards' merged results (merge_shards): the readings,
/// certificates, figures and audit.md, and the summary on standard output, as `corbin audit`
/// writes them unsharded.
void write_merged_audit(const MergedRun& run, const AuditOutput& output);

}  // namespace corbin::cli
