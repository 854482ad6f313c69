#pragma once
// Options shared by the subcommands: the privacy budget, the quantizer's geometry and the
// output format. All numbers are read as strings and parsed exactly (parse_rational), so that
// every bad value gets the same one-line message naming the option.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin::cli {

struct BudgetOptions {
  std::string alpha, exp_eps, eps, precision;
  void add(CLI::App& app);
  /// The budget given; every budget option given is validated, an empty value included, and so is
  /// --precision even where the subcommand will not need it.
  Budget budget() const;
  /// Whether any of --alpha, --exp-eps, --eps was given (even as "").
  bool given() const;
  /// Working precision in bits for certified evaluation at d shared bits (--precision or
  /// default_precision_bits(d)).
  unsigned precision_bits(unsigned long bits) const;
  /// Refuses a bad --precision where one was given (nothing is needed otherwise).
  void validate_precision() const;
  /// Forgets the budget, its values and that its options were given, so that another replaces it
  /// (a `corbin account --phase` that sets one); --precision stays.
  void clear_budget();

 private:
  CLI::Option *alpha_option_ = nullptr, *exp_eps_option_ = nullptr, *eps_option_ = nullptr,
              *precision_option_ = nullptr;
};

struct GeometryOptions {
  std::string center = "0", radius = "1", w = "0", w2 = "0", bits = "5", variant = "corrected";
  void add(CLI::App& app, bool pair);
  Rational c() const;
  Rational r() const;
  Rational w1() const;
  Rational w2_value() const;
  unsigned long d(unsigned long limit = kMaxBits) const;
  Variant v() const;
};

/// Parses an integer option in [minimum, limit] (e.g. --bits, --precision, a range's count) with a
/// message naming it.
unsigned long parse_count(const std::string& text, const char* option, unsigned long limit,
                          unsigned long minimum = 0);

/// "a,b,c" -> {"a", "b", "c"} (empty items kept: each caller refuses them by name).
std::vector<std::string> split_list(const std::string& text);

/// Where an e^ε as written (`typed`, given as `given_as`) looks like an ε in the wrong unit
/// (Budget::unit_warning), one line on stderr, once per line: a warning, the budget stands. A
/// value that is not a budget says nothing here (the command refuses it by name).
void warn_if_other_unit(const std::string& typed, const std::string& given_as, const std::string& eps_as);

}  // namespace corbin::cli
