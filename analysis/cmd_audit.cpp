// `corbin audit [--out DIR] [--quick]`: every claim's check, the report, certificates and
// figures (the README's main job).

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "audit.hpp"
#include "commands.hpp"
#include "data_files.hpp"

namespace corbin::cli {
namespace {

struct AuditArgs {
  std::string out = "reports";
  bool quick = false, no_figures = false;
  std::string python = "/usr/bin/python3";
};

void run_audit_command(const AuditArgs& a) {
  audit::AuditOptions options;
  options.out_dir = a.out;
  options.quick = a.quick;
  options.figures = !a.no_figures;
  options.python = a.python;
  options.figures_script = data_file("notebooks/corbin_figures.py").string();
  options.coq_source = data_file("proofs-check/coq").string();
  if (installed()) options.coq_build = installed_coq_build().string();
  options.fl_results = data_file("reports/fl-full/results.csv").string();
  const bool tty = isatty(2);
  const auto start = std::chrono::steady_clock::now();
  const auto progress = [&](const std::string& id, std::size_t done, std::size_t total) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << (tty ? "\r" : "") << "corbin audit: [" << done << "/" << total << "] " << id << "  ("
              << static_cast<int>(s) << " s)" << (tty ? "   " : "\n") << std::flush;
  };
  const auto results = audit::run_audit(options, progress);
  if (tty) std::cerr << "\n";
  for (const auto& r : results) std::cout << r.id << ": " << r.decision.text() << " — " << r.finding << "\n";
  std::cout << "wrote " << (std::filesystem::path(a.out) / "audit.md").string() << ", "
            << results.size() << " certificates, figures\n";
}

}  // namespace

void add_audit(CLI::App& app) {
  auto args = std::make_shared<AuditArgs>();
  auto* cmd = app.add_subcommand("audit", "run every claim's check; write audit.md, certificates, figures");
  cmd->add_option("--out", args->out, "output directory (default reports)");
  cmd->add_flag("--quick", args->quick, "the small grid (about a minute)");
  cmd->add_flag("--no-figures", args->no_figures, "write the figures' data but do not draw them");
  cmd->add_option("--python", args->python, "Python with matplotlib (default /usr/bin/python3)");
  cmd->callback([args] { run_audit_command(*args); });
}

}  // namespace corbin::cli
