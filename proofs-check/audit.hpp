#pragma once
// `corbin audit`: runs every check, writes DIR/audit.md (verdict table, then a section per
// claim), DIR/certificates/<ID>.json, the figures' data DIR/figures/data/*.csv, and the PNG
// figures (drawn by notebooks/corbin_figures.py with matplotlib).

#include <functional>
#include <string>
#include <vector>

#include "claims.hpp"
#include "coq_evidence.hpp"

namespace corbin::audit {

struct AuditOptions {
  std::string out_dir = "reports";
  bool quick = false;
  bool figures = true;
  std::string python = "/usr/bin/python3";  ///< Debian's, which has matplotlib
  std::string figures_script;               ///< notebooks/corbin_figures.py
  std::string coq_source = CORBIN_COQ_SOURCE;  ///< proofs-check/coq
  std::string coq_build = CORBIN_COQ_BUILD;    ///< where check.sh compiled it
  std::string fl_results = CORBIN_FL_RESULTS;  ///< the experiments' results (Grid::fl_results)
};

/// The claim's readings with their evidence (the Coq pins, the check's own computation) and the
/// claim's verdict. Raises runtime_error when a proof and the check's computation contradict
/// each other (a proved reading the check finds violated).
void attach_readings(ClaimResult& result, const CoqEvidence& coq);

/// Runs the checks; `progress(id, done, total)` is called before each. Returns the results.
std::vector<ClaimResult> run_audit(const AuditOptions& options,
                                   const std::function<void(const std::string&, std::size_t, std::size_t)>& progress);

/// The data behind the figures that are not a single claim's (Experiment 8, privacy–utility).
void write_figure_data(const Grid& grid, const std::string& dir);

/// The report's errata section; raises std::runtime_error if a cited theorem is not declared
/// by a file of _CoqProject.
std::string errata_markdown(const CoqEvidence& coq);

/// The markdown report.
std::string audit_markdown(const std::vector<ClaimResult>& results, const Grid& grid,
                           const CoqEvidence& coq, const std::string& figures_note);

}  // namespace corbin::audit
