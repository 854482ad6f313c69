#pragma once
// `corbin audit`: runs every check, writes DIR/audit.md (verdict table, then a section per
// claim), DIR/certificates/<ID>.json, the figures' data DIR/figures/data/*.csv, and the PNG
// figures (drawn by notebooks/corbin_figures.py with matplotlib).

#include <filesystem>
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

/// The certificate `corbin audit` writes for one claim (certificates/<ID>.json), from a result
/// whose readings are attached: the claim's verdict, the check's own outcome, the readings, the
/// provenance and the check's data. The per-claim programs write the same.
Json claim_certificate(const ClaimResult& result, const Grid& grid, const CoqEvidence& coq);

/// What a per-claim program prints (check_main.cpp): "ID: verdict — finding", the claim's verdict
/// as the audit gives it, then one line per reading with its verdict and, where this check's
/// computation decided it, what the computation found ("computed here: fails").
std::string claim_report(const ClaimResult& result);

/// The claim's readings with their evidence (the Coq pins, the check's own computation) and the
/// claim's verdict. Raises runtime_error when a proof and the check's computation contradict
/// each other (a proved reading the check finds violated).
void attach_readings(ClaimResult& result, const CoqEvidence& coq);

using Progress = std::function<void(const std::string&, std::size_t, std::size_t)>;

/// The grid `options` asks for (quick or the paper's), reading the experiments' results from
/// options.fl_results.
Grid audit_grid(const AuditOptions& options);

/// Runs the checks; `progress(id, done, total)` is called before each. Returns the results.
/// Equal to run_checks on every claim followed by write_audit.
std::vector<ClaimResult> run_audit(const AuditOptions& options, const Progress& progress);

/// The checks all_checks()[k] for each k of `selected` (ascending), on `grid`, as their checks
/// return them (no readings attached): the part of the audit that computes, which a shard of a
/// sharded audit runs for its claims. `progress(id, done, selected.size())` before each.
std::vector<ClaimResult> run_checks(const Grid& grid, const std::vector<std::size_t>& selected,
                                    const Progress& progress);

/// The output directories of an audit, created and checked writable (before any check runs, so
/// that a bad --out fails at once); returns DIR.
std::filesystem::path prepare_audit_directories(const AuditOptions& options);

/// What the audit writes from every claim's check result (all_checks() order): the readings
/// attached from `coq`, DIR/certificates/<ID>.json, the figures' data and figures, DIR/audit.md.
/// A merged sharded audit calls it with its shards' results and writes the same bytes.
void write_audit(const AuditOptions& options, const Grid& grid, const CoqEvidence& coq,
                 std::vector<ClaimResult>& results);

/// A check's result (before attach_readings) as JSON, and back: what a shard of the audit
/// carries to the merge. check_result_from_json(check_result_json(r)) equals r field for field
/// (the certificate as the same ordered JSON); a malformed object raises nlohmann's exceptions.
Json check_result_json(const ClaimResult& result);
ClaimResult check_result_from_json(const Json& json);

/// The data behind the figures that are not a single claim's (Experiment 8, privacy–utility).
void write_figure_data(const Grid& grid, const std::string& dir);

/// The report's errata section; raises std::runtime_error if a cited theorem is not declared
/// by a file of _CoqProject.
std::string errata_markdown(const CoqEvidence& coq);

/// The markdown report.
std::string audit_markdown(const std::vector<ClaimResult>& results, const Grid& grid,
                           const CoqEvidence& coq, const std::string& figures_note);

}  // namespace corbin::audit
