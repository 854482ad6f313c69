#pragma once
// `corbin account` as a function: the CLI (cmd_account.cpp) prints the outcome, and `corbin check`
// (check.cpp) decides bounds on it (quantities accountant_eps and accountant_delta).

#include <cstdint>
#include <optional>
#include <string>

#include "corbin/privacy/accountant.hpp"
#include "options.hpp"

namespace corbin::cli {

/// The options as given on the command line, as text.
struct AccountArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string n, gamma, m = "1", rounds = "1", delta, at_eps, neighbours, role = "ldpq",
                        cells = "2048";
};

/// The validated setting and its certified two-sided bounds: ε_lower <= ε(δ) <= ε_upper, or with
/// `at` (at_eps given), δ_lower <= δ(ε) <= δ_upper. An infinite upper bound is +∞ (no finite ε
/// reaches δ within the accountant's grid).
struct AccountOutcome {
  AccountSetting setting;
  unsigned long m = 1, rounds = 1, cells = 2048;
  std::uint64_t compositions = 1;
  bool at = false;
  Rational delta, at_eps;
  TwoSided bounds{0, 0};
  std::optional<AttainedBy> attained;  ///< the configuration attaining the lower bound
  std::size_t family_size = 0, configurations = 0,
              blocks = 0;  ///< the worst case's coverage (Accountant)
};

/// Validates `a` (invalid_argument naming the option) and computes the bounds.
AccountOutcome compute_account(const AccountArgs& a);

}  // namespace corbin::cli
