#include "audit.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "corbin/fl/registry.hpp"
#include "corbin/io/files.hpp"
#include "corbin/version.hpp"
#include "corbin/io/spawn.hpp"
#include "corbin/number/error.hpp"
#include "corbin/utility/pair_mse.hpp"

namespace corbin::audit {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) { io::write_atomically(path, text, "--out"); }

/// Worst-case per-coordinate aggregate MSE at PLDP ε (c = 0, r = 1, n clients) of every
/// registered mechanism that has one (fl::Mechanism::worst_aggregate_mse: CQ and SignSGD have
/// none), one column per mechanism under its name: the upper end of its enclosure (the value
/// itself where it is exact). All at one budget per row, e^ε rounded up to 6 decimals, and the
/// setting's other defaults: d = 5 (where α <= 2^5, as on this whole range, CorBin-FL's worst
/// case is the d → ∞ one), γ = 1/2, δ = 1e-5.
std::string privacy_utility_csv(const Grid& grid, unsigned long n) {
  PrecisionScope scope(128);
  const unsigned steps = grid.quick ? 12 : 40;
  const std::vector<const fl::Mechanism*> mechanisms = fl::Registry::global().all();
  std::vector<double> eps_column;
  std::vector<std::vector<std::optional<double>>> cells(mechanisms.size());
  for (unsigned i = 0; i <= steps; ++i) {
    const double eps = 0.1 * std::pow(70.0, static_cast<double>(i) / steps);  // 0.1 .. 7
    fl::CoordinateSetting s;
    s.budget = Budget::make(Budget::Kind::exp_eps, exp_eps_near(eps));
    s.center = Rational(0);
    s.radius = Rational(1);
    eps_column.push_back(eps);
    for (std::size_t k = 0; k < mechanisms.size(); ++k) {
      const std::optional<Interval> worst = mechanisms[k]->worst_aggregate_mse(s, n);
      // + 0.0: an exact 0 (vanilla) is written 0, not MPFI's −0.
      cells[k].push_back(worst ? std::optional<double>(upper_of(*worst).convert_to<double>() + 0.0) : std::nullopt);
    }
  }
  std::ostringstream csv;
  csv << "eps";
  std::vector<std::size_t> columns;
  for (std::size_t k = 0; k < mechanisms.size(); ++k)
    if (std::any_of(cells[k].begin(), cells[k].end(), [](const auto& v) { return v.has_value(); })) {
      columns.push_back(k);
      csv << "," << mechanisms[k]->name();
    }
  csv << "\n";
  for (std::size_t i = 0; i < eps_column.size(); ++i) {
    csv << eps_column[i];
    for (std::size_t k : columns) {
      csv << ",";
      if (cells[k][i]) csv << *cells[k][i];
    }
    csv << "\n";
  }
  return csv.str();
}

/// Experiment 8: pair MSE over w1, w2 in [−1/2, 1/2] (c = 0, r = 1/2), d = 5 and d → ∞, LDPQ.
std::string experiment8_csv(const Grid& grid) {
  std::ostringstream csv;
  csv << "eps,w1,w2,mse_corbinq_d5,mse_optimal,mse_ldpq\n";
  const Rational c(0), r(1, 2);
  const long steps = experiment8_steps(grid.quick);
  for (double eps : kExperiment8Eps) {
    const Rational x = exp_eps_near(eps), alpha = alpha_of(x);
    for (long i = -steps; i <= steps; ++i)
      for (long j = -steps; j <= steps; ++j) {
        const Rational w1 = r * Rational(i, steps), w2 = r * Rational(j, steps);
        const auto u = pair_utility(alpha, c, r, w1, w2, 5, Variant::corrected);
        csv << eps << "," << to_double(w1) << "," << to_double(w2) << "," << to_double(u.mse) << ","
            << to_double(u.mse_optimal) << "," << to_double(u.mse_ldp) << "\n";
      }
  }
  return csv.str();
}

Verdict7 grid_verdict(Verdict computed, bool empirical) {
  switch (computed) {
    case Verdict::holds:
    case Verdict::holds_with_slack: return empirical ? Verdict7::holds_empirical : Verdict7::holds_grid;
    case Verdict::fails: return Verdict7::fails;
    default: return Verdict7::undecided;
  }
}

std::string escape_cell(std::string text) {
  for (char& ch : text)
    if (ch == '|') ch = '/';
  return text;
}

}  // namespace

void attach_readings(ClaimResult& result, const CoqEvidence& coq) {
  const ClaimSpec& spec = claim_spec(result.id);
  result.readings.clear();
  for (const ReadingSpec& reading : spec.readings) {
    ReadingResult rr;
    rr.spec = reading;
    bool computed = result.reading == reading.key;
    const bool empirical = reading.role == Role::empirical;
    Verdict7 grid = computed ? grid_verdict(result.verdict, empirical) : Verdict7::undecided;
    if (computed) rr.computed = to_string(result.verdict);
    for (const auto& [key, verdict] : result.also)
      if (key == reading.key) {
        grid = grid_verdict(verdict, empirical);
        computed = true;
        rr.computed = to_string(verdict);
      }
    if (const PinnedTheorem* pin = coq.find(result.id, reading.key)) {
      rr.coq_file = pin->file;
      rr.coq_lemma = pin->lemma;
      rr.coq_pinned = std::string(pin->holds ? "holds__" : "fails__") + result.id + "__" + reading.key;
      rr.coq_statement = pin->statement;
      rr.coq_checked = coq.checked;
      const std::string cite = "Coq: `" + pin->file + "`, `" + pin->lemma + "` (pinned in `Verdicts.v` as `" +
                               rr.coq_pinned + " : " + pin->statement + "`)";
      // The verdict is the pinned theorem's whether or not this run compiled the proofs, so that
      // it never changes with a build cache; an unchecked run says so beside it (and in the
      // certificate's coq_checked and provenance).
      rr.decision.verdict = pin->holds ? Verdict7::holds_proved : Verdict7::fails;
      rr.evidence = coq.checked ? cite + "." : cite + ". Coq not checked here: " + coq.why_not + ".";
      if (pin->holds && grid == Verdict7::fails)
        throw std::runtime_error(result.id + "/" + reading.key + ": Coq proves it, but the check finds it violated (" +
                                 result.finding + ")");
      if (!pin->holds && grid != Verdict7::undecided && grid != Verdict7::fails)
        rr.evidence += " The check's grid holds no counterexample; the proof's inputs lie off it.";
    } else if (computed) {
      rr.decision.verdict = grid;
    }
    if (computed && grid != Verdict7::undecided && rr.decision.verdict == grid)
      rr.evidence += std::string(rr.evidence.empty() ? "" : " ") +
                     (grid == Verdict7::fails ? "Counterexample computed by the check, with all its inputs in the "
                                                "certificate; the rechecker recomputes it."
                                              : "Computed by the check (see Result); no proof.");
    if (rr.evidence.empty())
      rr.evidence = computed ? "Computed by the check, which does not decide it (see Result)."
                             : "Neither a proof nor a computation decides this reading yet.";
    result.readings.push_back(std::move(rr));
  }
  result.decision = decide(result.readings);
}

Json readings_json(const ClaimResult& r) {
  Json list = Json::array();
  for (const ReadingResult& rr : r.readings) {
    Json j = Json::object();
    j["key"] = rr.spec.key;
    j["role"] = to_string(rr.spec.role);
    j["text"] = rr.spec.text;
    if (!rr.spec.note.empty()) j["note"] = rr.spec.note;
    j["verdict"] = rr.decision.text();
    if (!rr.coq_lemma.empty()) {
      Json coq = Json::object();
      coq["file"] = rr.coq_file;
      coq["lemma"] = rr.coq_lemma;
      coq["pinned"] = rr.coq_pinned;
      coq["statement"] = rr.coq_statement;
      coq["checked"] = rr.coq_checked;
      j["coq"] = coq;
    }
    if (!rr.computed.empty()) j["computed"] = rr.computed;
    j["evidence"] = rr.evidence;
    list.push_back(j);
  }
  return list;
}

Json claim_certificate(const ClaimResult& r, const Grid& grid, const CoqEvidence& coq) {
  // What the verdicts rest on: this corbin, and the Coq sources read (checked in this run or not).
  Json provenance = Json::object();
  provenance["corbin"] = kVersion;
  provenance["coq_checked"] = coq.checked;
  provenance["coq_sources_sha256"] = coq.source_sha256;
  Json cert = Json::object();
  cert["id"] = r.id;
  cert["verdict"] = r.decision.text();
  cert["check_verdict"] = r.verdict_text();
  cert["finding"] = r.finding;
  cert["coq_checked"] = coq.checked;
  cert["provenance"] = provenance;
  cert["readings"] = readings_json(r);
  cert["grid"] = grid.quick ? "quick" : "paper";
  cert["data"] = r.certificate;
  return cert;
}

std::string claim_report(const ClaimResult& r) {
  std::string text = r.id + ": " + r.decision.text() + " — " + r.finding + "\n";
  for (const ReadingResult& rr : r.readings) {
    text += "  reading " + rr.spec.key + " (" + to_string(rr.spec.role) + "): " + rr.decision.text();
    if (!rr.computed.empty()) text += "; computed here: " + rr.computed;
    text += "\n";
  }
  return text;
}

void write_figure_data(const Grid& grid, const std::string& dir) {
  fs::create_directories(dir);
  write_file(fs::path(dir) / "privacy_utility.csv", privacy_utility_csv(grid, 50));
  write_file(fs::path(dir) / "experiment8.csv", experiment8_csv(grid));
}

/// The misprints (readings.hpp errata()), each with the Coq theorems showing that the printed
/// and the intended forms differ; a theorem no file of _CoqProject declares stops the audit.
std::string errata_markdown(const CoqEvidence& coq) {
  std::ostringstream md;
  md << "## Errata\n\n"
     << "Misprints whose intended form is clear. Each claim they touch is read both ways (the readings below). Coq: "
     << "`proofs-check/coq/Errata.v` unless a file is named"
     << (coq.checked ? ", checked in this run." : ", **not checked in this run** (" + coq.why_not + ").") << "\n\n"
     << "| erratum | where | printed | intended | effect | Coq |\n|---|---|---|---|---|---|\n";
  for (const Erratum& e : errata()) {
    std::string names;
    for (const std::string& t : e.theorems) {
      const std::string file = coq.declaring_file(t, "Errata.v");
      if (file.empty())
        throw std::runtime_error("erratum " + e.id + " cites " + t + ", which no file of _CoqProject declares");
      names += (names.empty() ? "" : ", ") + std::string("`") + t + "`";
    }
    md << "| " << e.id << " | " << escape_cell(e.location) << " | " << escape_cell(e.printed) << " | "
       << escape_cell(e.intended) << " | " << escape_cell(e.effect) << " | " << names << " |\n";
  }
  md << "\nConsidered and judged not to be errata:\n\n| id | where | printed | read as | why | Coq |\n|---|---|---|---|---|---|\n";
  for (const Erratum& e : not_errata()) {
    std::string names;
    for (const std::string& t : e.theorems) {
      if (coq.declaring_file(t, "Errata.v").empty())
        throw std::runtime_error(e.id + " cites " + t + ", which no file of _CoqProject declares");
      names += (names.empty() ? "" : ", ") + std::string("`") + t + "`";
    }
    md << "| " << e.id << " | " << escape_cell(e.location) << " | " << escape_cell(e.printed) << " | "
       << escape_cell(e.intended) << " | " << escape_cell(e.effect) << " | " << (names.empty() ? "—" : names) << " |\n";
  }
  return md.str();
}

/// "File.v 1a2b3c4d…, …": each Coq source's hash, shortened for reading (the certificates hold it whole).
std::string coq_sources_line(const CoqEvidence& coq) {
  std::string line;
  for (const auto& [file, hash] : coq.source_sha256)
    line += (line.empty() ? "" : ", ") + std::string("`") + file + "` " + hash.substr(0, 12);
  return line.empty() ? "none" : line;
}

std::string audit_markdown(const std::vector<ClaimResult>& results, const Grid& grid, const CoqEvidence& coq,
                           const std::string& figures_note) {
  std::ostringstream md;
  md << "# Audit of the CorBin-FL paper's claims\n\n"
     << "Generated by `corbin audit" << (grid.quick ? " --quick" : "") << "`. Each claim is stated as the paper "
     << "prints it, and each other way the text can be read is a separate reading with its own verdict. A verdict "
     << "comes from a proof checked by Coq (`proofs-check/coq/`, every theorem pinned in `Verdicts.v`), from a "
     << "counterexample whose inputs are all in the claim's certificate, or from a computation over a grid, which "
     << "is reported as such. Certificates are in `certificates/<ID>.json`; `proofs-check/recheck_certificates.py` "
     << "recomputes them with its own code.\n\n"
     << "Coq proofs: "
     << (coq.checked ? "checked in this run (" + std::to_string(coq.files) +
                           " files compiled; no admitted proof; no assumption beyond the axioms of the standard "
                           "library's real numbers)."
                     : "**not checked in this run** (" + coq.why_not +
                           "); the verdicts that rest on them are the pinned theorems', marked \"Coq not checked "
                           "here\" in their evidence: run `bash proofs-check/coq/check.sh proofs-check/coq /tmp/coq` "
                           "(or `ctest -L proof`) before relying on them.")
     << "\n\n"
     << "Provenance: corbin " << kVersion << "; the Coq sources read, by SHA-256 (also in every certificate's "
     << "`provenance`): " << coq_sources_line(coq) << ".\n\n"
     << "Vocabulary: **holds (proved)** for every value the claim quantifies over, in Coq; **holds (checked on a "
     << "grid; proof open)**; **holds only under** a condition; **erratum** (fails, or is not shown to hold, as "
     << "printed; holds as evidently intended: the typo is named); **fails** (inputs that meet every precondition and break the printed "
     << "conclusion); **proof invalid** (a step is wrong, the conclusion is not refuted); **undecided**.\n\n"
     << "| ID | verdict | one-line finding |\n|---|---|---|\n";
  for (const ClaimResult& r : results)
    md << "| " << r.id << " | " << escape_cell(r.decision.text()) << " | " << escape_cell(r.finding) << " |\n";
  md << "\nGrid of the computations: e^ε for ε ∈ {";
  for (std::size_t i = 0; i < grid.eps.size(); ++i) md << (i ? ", " : "") << grid.eps[i];
  md << "} (e^ε rounded up to 6 decimals, so every α is rational), d ∈ {";
  for (std::size_t i = 0; i < grid.bits.size(); ++i) md << (i ? ", " : "") << grid.bits[i];
  md << "}, inputs at steps of r/" << grid.input_steps << ". " << figures_note << "\n";
  md << "\n" << errata_markdown(coq);
  for (const ClaimResult& r : results) {
    const ClaimSpec& spec = claim_spec(r.id);
    md << "\n## " << r.id << " — " << r.decision.text() << "\n\n";
    if (!spec.quote.empty()) md << "**Statement** (" << spec.location << "). " << spec.quote << "\n\n";
    else md << "**Statement.** " << r.statement << "\n\n";
    md << "**Readings.**\n\n";
    for (const ReadingResult& rr : r.readings) {
      md << "- *" << rr.spec.key << "* (" << to_string(rr.spec.role);
      if (!rr.spec.note.empty()) md << ": " << rr.spec.note;
      md << ") — **" << rr.decision.text() << "**. " << rr.spec.text << " Evidence: " << rr.evidence << "\n";
    }
    md << "\n**Method.** " << r.method << "\n\n"
       << "**Result.** " << r.result << "\n\n";
    for (const Figure& f : r.figures)
      md << "![" << r.id << "](figures/" << f.file << ")\n\n*Figure.* " << f.caption << "\n\n";
    if (const std::string review = second_reading(r.id); !review.empty())
      md << "**Second reading.** " << review << "\n\n";
    md << "**Recheck.** " << r.recheck << " Certificate: `certificates/" << r.id << ".json`; "
       << "`/usr/bin/python3 proofs-check/recheck_certificates.py --only " << r.id << " DIR`";
    bool any_coq = false;
    for (const ReadingResult& rr : r.readings) any_coq = any_coq || !rr.coq_lemma.empty();
    if (any_coq) md << "; the proofs: `bash proofs-check/coq/check.sh proofs-check/coq /tmp/coq`";
    md << ".\n";
  }
  return md.str();
}

Grid audit_grid(const AuditOptions& options) {
  Grid grid = options.quick ? Grid::quick_grid() : Grid::paper();
  grid.fl_results = options.fl_results;
  return grid;
}

fs::path prepare_audit_directories(const AuditOptions& options) {
  const fs::path out = io::prepare_output_directory(options.out_dir, "--out");
  io::prepare_output_directory((out / "certificates").string(), "--out");
  io::prepare_output_directory((out / "figures" / "data").string(), "--out");
  return out;
}

std::vector<ClaimResult> run_checks(const Grid& grid, const std::vector<std::size_t>& selected,
                                    const Progress& progress) {
  std::vector<ClaimResult> results;
  const auto& checks = all_checks();
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const NamedCheck& check = checks.at(selected[i]);
    if (progress) progress(check.id, i, selected.size());
    results.push_back(check.run(grid));
  }
  return results;
}

void write_audit(const AuditOptions& options, const Grid& grid, const CoqEvidence& coq,
                 std::vector<ClaimResult>& results) {
  const fs::path out = prepare_audit_directories(options);
  for (ClaimResult& r : results) {
    attach_readings(r, coq);
    write_file(out / "certificates" / (r.id + ".json"), claim_certificate(r, grid, coq).dump(1) + "\n");
  }
  write_figure_data(grid, (out / "figures" / "data").string());
  std::string note = "Figures are in `figures/`.";
  if (options.figures) {
    // An argument vector, never a shell: --python and --out are values, whatever they contain.
    if (options.figures_script.empty() || !fs::exists(options.figures_script) ||
        io::run_program({options.python, options.figures_script, out.string()}, out / "figures" / "figures.log") != 0)
      note = "Figures were not drawn (matplotlib under " + options.python + " or the script " +
             options.figures_script + " unavailable; see figures/figures.log); their data is in figures/data/.";
  } else {
    note = "Figures were not drawn (--no-figures); their data is in figures/data/.";
  }
  write_file(out / "audit.md", audit_markdown(results, grid, coq, note));
}

std::vector<ClaimResult> run_audit(const AuditOptions& options, const Progress& progress) {
  const Grid grid = audit_grid(options);
  prepare_audit_directories(options);
  const CoqEvidence coq = load_coq_evidence(options.coq_source, options.coq_build);
  std::vector<std::size_t> every(all_checks().size());
  for (std::size_t k = 0; k < every.size(); ++k) every[k] = k;
  std::vector<ClaimResult> results = run_checks(grid, every, progress);
  if (progress) progress("figures", every.size(), every.size());
  write_audit(options, grid, coq, results);
  return results;
}

}  // namespace corbin::audit
