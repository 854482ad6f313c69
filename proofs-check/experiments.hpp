#pragma once
// The experiments' claims (E1–E5) are decided from the full-scale federated runs: the CSV that
// analysis/fl_experiments.py --scale full writes (reports/fl-full/results.csv), one row per run
// and seed with its test accuracy at the best-validation round (the paper's checkpoint).
//
// The rule, "at the seeds' spread": A is above B when every seed's value of A exceeds every
// seed's value of B (their ranges are disjoint, A's higher), below when every value of A is under
// every value of B, and the two overlap otherwise. A claim is cut into parts; each part wants an
// order (A above B, or A not above B, or A not below B) and fails on its opposite. A part holds
// when all its comparisons give what it wants, fails when one gives the opposite, and is
// undecided otherwise (overlap, or runs missing). A claim fails if a part fails, holds if every
// part holds, and is undecided otherwise. The certificate carries every value compared, so
// recheck_certificates.py recomputes each order and verdict from it alone.

#include <map>
#include <string>
#include <vector>

#include "claims.hpp"

namespace corbin::audit {

/// The decision rule at the seeds' spread, and its error rate, for every experiment's method.
inline constexpr const char* kSpreadRule =
    " Decision rule: A is above B when every seed of A is above every seed of B. With 3 seeds each and no "
    "true difference (exchangeable runs) that happens with probability 1/C(6, 3) = 1/20: a one-sided test at "
    "p = 0.05, per comparison; a claim of several comparisons inherits their combined error.";

/// The accuracies (%) of one configuration, one per seed, in seed order.
struct SeedValues {
  std::string label;
  std::string run, minus_run;  ///< the CSV's run (minus another run, seed by seed); empty for a constant
  std::vector<long long> seeds;
  std::vector<double> values;
  std::vector<bool> stopped;  ///< a run that ended before its last round (its checkpoint's value)
};

struct ExperimentRuns {
  std::string path;
  bool found = false;
  std::map<std::string, SeedValues> runs;  ///< by run name (e.g. "exp1-corbin")
  std::map<std::string, std::string> settings;  ///< clients, rounds, lambda, batch of the first row
  /// The named run's values (empty values when it was not run).
  SeedValues get(const std::string& name, const std::string& label) const;
};

/// Reads the CSV; `found` is false when the file does not exist. Raises invalid_argument naming
/// the file for a malformed one.
ExperimentRuns load_experiment_runs(const std::string& path);

/// a − b seed by seed, over the seeds both have.
SeedValues paired_difference(const SeedValues& a, const SeedValues& b, const std::string& label);

enum class Want { above, not_above, not_below };

/// One part of an experimental claim: comparisons that all want the same order.
class ClaimPart {
 public:
  ClaimPart(std::string statement, Want want) : statement_(std::move(statement)), want_(want) {}
  void compare(const SeedValues& a, const SeedValues& b);
  Verdict verdict() const;
  Json certificate() const;
  const std::string& statement() const { return statement_; }
  /// One line per comparison: "A above B (range … vs …)".
  std::string describe() const;

 private:
  std::string statement_;
  Want want_;
  std::vector<std::pair<SeedValues, SeedValues>> items_;
};

/// Fills out's verdict, result and certificate from the parts (and the runs' provenance).
void decide_experiment(ClaimResult& out, const ExperimentRuns& runs, const std::vector<ClaimPart>& parts);

}  // namespace corbin::audit
