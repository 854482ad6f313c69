#pragma once
// The experiments' claims (E1–E5) are decided from the full-scale federated runs: the CSV that
// analysis/fl_experiments.py --scale full writes (reports/fl-full/results.csv), one row per run
// and seed with its test accuracy at the best-validation round (the paper's checkpoint).
//
// The rule is sequential and was fixed before the runs it governs (analysis/fl_experiments.py
// makes the seeds it asks for). A comparison "A above B" uses the first n seeds of
// kSequentialSeeds in both arms, at looks n = 3, 6, 10; at each look Welch's t (Welch-Satterthwaite
// degrees of freedom) is tested one-sided both ways at kAlpha / 3 (Bonferroni over the looks): A is
// above B when P(T >= t) <= 1/60, below when P(T <= t) <= 1/60 (equivalently, when the rule's
// interval for the difference, mean ± its t quantile at 1 − 1/60 times the standard error,
// excludes 0 on that side). The first look that decides stops the comparison; one that does not,
// with a later look's seeds missing, leaves it pending; after the last look it is undecided, with
// the difference and its interval. With equal means (accuracies normal over seeds) each direction
// is declared with probability at most kAlpha over all looks.
//
// A claim is cut into parts; each part wants an order (A above B; A not above B or not below B,
// which the paper states as "no significant" change). A part fails when a comparison decides the
// opposite of what it wants. "above" holds only when decided; "not above" and "not below" hold
// when the rule ran to its last look without deciding the opposite. A claim fails if a part
// fails, holds if every part holds, and is undecided otherwise. The certificate carries every
// value compared and every look's statistics, so recheck_certificates.py recomputes each
// decision from the certificate and from results.csv.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "claims.hpp"

namespace corbin::audit {

/// The sequential rule's seeds (in the order batches add them), looks and error rate.
inline constexpr long long kSequentialSeeds[] = {0, 42, 100, 1234, 5678, 1, 2, 3, 4, 5};
inline constexpr std::size_t kLooks[] = {3, 6, 10};
inline constexpr double kAlpha = 0.05;

/// The decision rule, as every experiment's method states it.
inline constexpr const char* kSequentialRule =
    " Decision rule (fixed before the runs): Welch's t on the first 3, 6, then 10 seeds of 0, 42, 100, 1234, 5678, "
    "1, 2, 3, 4, 5, one-sided both ways at 1/60 per look (0.05 over the three looks, Bonferroni): A is above B "
    "when P(T >= t) <= 1/60, below when P(T <= t) <= 1/60; the first look that decides stops; after the last "
    "undecided, with the difference and its interval. With equal means each direction is declared with "
    "probability at most 0.05 (accuracies normal over seeds); a claim of several comparisons inherits their "
    "combined error.";

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
