// `corbin audit [--out DIR] [--quick]`: every claim's check, the report, certificates and
// figures (the README's main job). With --shard i/N (or in a Slurm array task) it runs only the
// checks of claims k with k mod N = i (in CLAIMS.md order) and writes their results to
// DIR/audit.shard-i-of-N.json; `corbin merge` writes the report from the N shards.

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "audit.hpp"
#include "audit_command.hpp"
#include "commands.hpp"
#include "corbin/io/files.hpp"
#include "corbin/number/error.hpp"
#include "data_files.hpp"
#include "run_app.hpp"

namespace corbin::cli {
namespace {

namespace fs = std::filesystem;

struct AuditArgs {
  AuditOutput output;
  bool quick = false;
  std::string shard;
  CLI::Option* shard_option = nullptr;
};

audit::AuditOptions audit_options(const AuditOutput& a, bool quick) {
  audit::AuditOptions options;
  options.out_dir = a.out;
  options.quick = quick;
  options.figures = !a.no_figures;
  options.python = a.python;
  options.figures_script = data_file("notebooks/corbin_figures.py").string();
  options.coq_source = data_file("proofs-check/coq").string();
  if (installed()) options.coq_build = installed_coq_build().string();
  options.fl_results = data_file("reports/fl-full/results.csv").string();
  return options;
}

/// The audit's identity in its shard files: the grid, and the experiments' results the claims
/// E1–E5 are decided from (by content: shards run where the file differs must not be merged).
Json audit_arguments(const audit::AuditOptions& options) {
  Json j = Json::object();
  j["--quick"] = options.quick;
  std::ifstream in(options.fl_results, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  j["results.csv"] = in ? io::sha256_hex(bytes.str()) : std::string("absent");
  return j;
}

/// `progress` for run_checks: "[done/total] ID (seconds)", on one line at a terminal.
audit::Progress progress_printer() {
  const bool tty = isatty(2);
  const auto start = std::chrono::steady_clock::now();
  return [tty, start](const std::string& id, std::size_t done, std::size_t total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << (tty ? "\r" : "") << "corbin audit: [" << done << "/" << total << "] " << id << "  ("
              << static_cast<int>(s) << " s)" << (tty ? "   " : "\n") << std::flush;
  };
}

void print_results(const std::vector<audit::ClaimResult>& results, const std::string& out) {
  for (const auto& r : results) std::cout << r.id << ": " << r.decision.text() << " — " << r.finding << "\n";
  std::cout << "wrote " << (fs::path(out) / "audit.md").string() << ", " << results.size()
            << " certificates, figures\n";
}

/// One shard: its claims' checks, written as DIR/audit.shard-i-of-N.json (nothing else).
void run_audit_shard(const AuditArgs& a, const Shard& shard) {
  const audit::AuditOptions options = audit_options(a.output, a.quick);
  const fs::path out = io::prepare_output_directory(options.out_dir, "--out");
  const auto& checks = audit::all_checks();
  std::vector<std::size_t> selected;
  for (std::size_t k = 0; k < checks.size(); ++k)
    if (shard.holds(k)) selected.push_back(k);
  const auto results = audit::run_checks(audit::audit_grid(options), selected, progress_printer());
  if (isatty(2)) std::cerr << "\n";
  ShardFile file;
  file.run = run_identity("audit", audit_arguments(options));
  file.shard = shard;
  file.items = checks.size();
  std::string ids;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    file.results.emplace_back(selected[i], audit::check_result_json(results[i]));
    ids += (ids.empty() ? "" : ", ") + results[i].id;
  }
  const fs::path path = out / ("audit.shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count) + ".json");
  io::write_atomically(path, shard_text(file), "--out");
  std::cout << "wrote " << path.string() << ": shard " << shard.name() << ", claims "
            << (ids.empty() ? "none" : ids) << " (`corbin merge` writes the report from all " << shard.count
            << " shards)\n";
}

void run_audit_command(const AuditArgs& a) {
  const auto shard = shard_to_run(a.shard, a.shard_option->count() > 0, "audit", std::getenv);
  if (shard) return run_audit_shard(a, *shard);
  const audit::AuditOptions options = audit_options(a.output, a.quick);
  const auto results = audit::run_audit(options, progress_printer());
  if (isatty(2)) std::cerr << "\n";
  print_results(results, a.output.out);
}

}  // namespace

void AuditOutput::add(CLI::App& app) {
  out_option = app.add_option("--out", out, "output directory (default reports)");
  no_figures_option = app.add_flag("--no-figures", no_figures, "write the figures' data but do not draw them");
  python_option = app.add_option("--python", python, "Python with matplotlib (default /usr/bin/python3)");
}

bool AuditOutput::given() const {
  return out_option->count() > 0 || no_figures_option->count() > 0 || python_option->count() > 0;
}

void write_merged_audit(const MergedRun& run, const AuditOutput& output) {
  const auto& checks = audit::all_checks();
  const Json& arguments = run.run.at("arguments");
  if (!arguments.is_object() || !arguments.contains("--quick") || !arguments.at("--quick").is_boolean())
    throw invalid_argument(run.first_file, "an audit shard without a boolean --quick",
                           "a shard as corbin audit --shard writes it");
  const bool quick = arguments.at("--quick").get<bool>();
  const audit::AuditOptions options = audit_options(output, quick);
  if (run.results.size() != checks.size())
    throw invalid_argument("the shards' audit", std::to_string(run.results.size()) + " claims",
                           std::to_string(checks.size()) + " claims, this corbin's (CLAIMS.md)");
  std::vector<audit::ClaimResult> results;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    try {
      results.push_back(audit::check_result_from_json(run.results[k]));
    } catch (const std::exception& e) {
      throw invalid_argument("the shards' claim " + std::to_string(k), "malformed (" + first_line(e.what()) + ")",
                             "a check's result as corbin audit --shard writes it");
    }
    if (results.back().id != checks[k].id)
      throw invalid_argument(run.sources[k] + ": claim " + std::to_string(k), quote(results.back().id),
                             std::string(checks[k].id) + " (CLAIMS.md order)");
  }
  const audit::Grid grid = audit::audit_grid(options);
  audit::prepare_audit_directories(options);
  const audit::CoqEvidence coq = audit::load_coq_evidence(options.coq_source, options.coq_build);
  audit::write_audit(options, grid, coq, results);
  print_results(results, output.out);
}

void add_audit(CLI::App& app) {
  auto args = std::make_shared<AuditArgs>();
  auto* cmd = app.add_subcommand("audit", "run every claim's check; write audit.md, certificates, figures");
  args->output.add(*cmd);
  cmd->add_flag("--quick", args->quick, "the small grid (fast: README.md, Timings)");
  args->shard_option = cmd->add_option(
      "--shard", args->shard,
      "i/N: run the checks of shard i of N (0 <= i < N) into DIR/audit.shard-i-of-N.json for `corbin merge`; "
      "default in a Slurm array task: its SLURM_ARRAY_TASK_ID and _COUNT; none: the whole audit");
  cmd->callback([args] { run_audit_command(*args); });
}

}  // namespace corbin::cli
