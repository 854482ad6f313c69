#pragma once
// `corbin account` as a function: the CLI (cmd_account.cpp) prints the outcome, and `corbin check`
// (check.cpp) decides bounds on it (quantities accountant_eps and accountant_delta).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corbin/privacy/run/infinite_eps.hpp"
#include "corbin/privacy/run/run_ledger.hpp"
#include "options.hpp"

namespace corbin::cli {

/// The options as given on the command line, as text. The options describe the run's first kind
/// of round; each of `phases` ("key=value,...", the same keys without dashes) the next kind,
/// changing only the keys it gives.
struct AccountArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string n, gamma, m = "1", rounds = "1", delta, at_eps, neighbours, role = "drawn",
                        dropout = "0", cells, target_eps;
  /// Poisson client sampling at rate q: the round's dropout 1 − q (round.hpp); empty: not given.
  std::string sampling_rate;
  /// A registered mechanism (fl/registry.hpp) other than Theorem 3's (augcorbin with --gamma, the
  /// default), and the Gaussian's calibration δ.
  std::string mechanism, calibration_delta;
  /// A pair of laws of the user's own, "P:Q" (P and Q comma lists of probabilities on the same
  /// outputs): the mechanism, in place of every option above but the rounds (its compositions).
  std::string laws;
  std::vector<std::string> phases;
};

/// The field of `a` a spec or a phase names by an option's name without dashes ("exp-eps", "n",
/// ...); null for another name. `per_round`: only the keys a kind of round has (not delta, at-eps,
/// cells).
std::string* account_field(AccountArgs& a, std::string_view key, bool per_round = false);
/// Every name account_field knows, for messages.
std::vector<std::string> account_field_names(bool per_round = false);

/// The validated run and its certified two-sided bounds: ε_lower <= ε(δ) <= ε_upper, or with
/// `at` (at_eps given), δ_lower <= δ(ε) <= δ_upper. An infinite upper bound is +∞ (no finite ε
/// reaches δ within the accountant's grid).
/// One phase as asked: its mechanism ("augcorbin" for Theorem 3's), clients, coordinates, rounds.
struct AccountPhase {
  std::string mechanism;
  unsigned long n = 0;
  std::uint64_t m = 1, rounds = 1;
  std::optional<Budget> budget = Budget{Budget::Kind::exp_eps, Rational(3)};  ///< none: a room that takes none
  Neighbour relation = Neighbour::replace_one;
  Rational dropout{0};  ///< a room's rounds' dropout (a kind's is its own)
};

struct AccountOutcome {
  RunLedger ledger;
  std::vector<AccountPhase> phases;
  std::vector<std::string> budgets;  ///< each phase's budget, as its option names it
  unsigned long cells = 2048;
  bool at = false;
  Rational delta, at_eps;
  RunLedger::Answer answer;
  TwoSided bounds{0, 0};  ///< answer.bounds
  /// ε(δ) with an infinite upper end: why, and client 1 on LDPQ in every round beside it.
  std::optional<InfiniteEps> infinite;
  /// --target-eps: the largest ε_p found (every round's budget) whose ε_upper(δ) <= the target,
  /// and the smallest tried above it whose ε_upper is not (none when no ε_p tried meets it).
  std::optional<Rational> largest_eps, refuted_eps;
};

/// Validates `a` (invalid_argument naming the option) and computes the bounds.
AccountOutcome compute_account(const AccountArgs& a);

}  // namespace corbin::cli
