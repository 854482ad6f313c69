// `corbin merge SHARD...`: joins the shard files of a sharded `corbin sweep` or `corbin audit`
// (shard.hpp) into what the unsharded command writes: the sweep's CSV on standard output, the
// audit's report under --out. Nothing is written unless the files are exactly the N shards of one
// run: a missing, repeated or foreign shard is exit 2 with one line naming it.

#include <iostream>
#include <memory>

#include "audit_command.hpp"
#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "shard.hpp"

namespace corbin::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> files;
  AuditOutput output;
};

void run_merge(const MergeArgs& a) {
  std::vector<std::filesystem::path> paths(a.files.begin(), a.files.end());
  const MergedRun run = merge_shards(paths);
  const Json& command_value = run.run.at("command");
  const std::string command = command_value.is_string() ? command_value.get<std::string>() : command_value.dump();
  if (command == "audit") return write_merged_audit(run, a.output);
  if (command != "sweep")
    throw invalid_argument(run.first_file, "a shard of corbin " + quote(command),
                           "a shard of corbin sweep or audit");
  if (a.output.given())
    throw invalid_argument(
        "--out, --no-figures and --python", "given",
        "absent for a sweep's shards (the merged CSV is printed, as corbin sweep prints it)");
  // The rows are built in full before anything is printed, as the unsharded sweep does.
  if (!run.shared.is_object() || !run.shared.contains("header") || !run.shared.at("header").is_string())
    throw invalid_argument(run.first_file, "a sweep shard without its CSV header",
                           "a shard as corbin sweep --shard writes it");
  std::string csv = run.shared.at("header").get<std::string>();
  for (std::size_t k = 0; k < run.results.size(); ++k) {
    if (!run.results[k].is_string())
      throw invalid_argument(run.sources[k] + ": item " + std::to_string(k), quote(run.results[k].dump()),
                             "a sweep's CSV rows (text)");
    csv += run.results[k].get<std::string>();
  }
  std::cout << csv << std::flush;
  if (!std::cout)
    throw invalid_argument("standard output", "unwritable", "a stream the CSV can be written to");
}

}  // namespace

void add_merge(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge",
                                 "join the shard files of `corbin sweep --shard` (CSV on stdout) "
                                 "or `corbin audit --shard` (the report)");
  cmd->add_option("shards", args->files, "every shard file of one run (any order)")->required();
  args->output.add(*cmd);
  cmd->callback([args] { run_merge(*args); });
}

}  // namespace corbin::cli
