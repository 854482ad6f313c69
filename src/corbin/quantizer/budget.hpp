#pragma once
// The privacy budget and the scale α(ε) = (e^ε + 1)/(e^ε − 1) of Alg. 1, line 1.
//
// α is rational exactly when e^ε is, so the budget can be given three ways:
//   alpha  A      α itself (A > 1)                    -> exact
//   exp_eps X     e^ε = X (X > 1), α = (X+1)/(X−1)    -> exact
//   eps E         ε = E (E > 0), α transcendental     -> certified interval
// Note: the paper's Section 2.3 prints α = (1+e^ε)/(1−e^ε), which is negative; Alg. 1 and all
// proofs use (e^ε+1)/(e^ε−1), which is what is implemented.

#include <string>

#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"

namespace corbin {

struct Budget {
  enum class Kind { alpha, exp_eps, eps };
  /// Largest ε accepted as a transcendental budget: e^ε must stay inside MPFR's exponent range.
  static inline const Rational kMaxEps{100000000};
  Kind kind;
  Rational value;

  /// Validates the value for its kind (α > 1, e^ε > 1, 0 < ε <= kMaxEps); raises
  /// invalid_argument naming alpha, exp_eps or eps.
  static Budget make(Kind kind, const Rational& value);

  bool exact() const { return kind != Kind::eps; }
  /// α exactly; only for exact budgets.
  Rational alpha_exact() const;
  /// Enclosure of α at the working precision (a point interval's enclosure for exact budgets).
  Interval alpha_interval() const;
  /// Enclosure of ε = ln((α+1)/(α−1)).
  Interval eps_interval() const;
  /// e^ε exactly; only for exact budgets.
  Rational exp_eps_exact() const;
  /// Enclosure of e^ε (a point interval's enclosure for exact budgets).
  Interval exp_eps_interval() const;
  /// The parameter that sets the budget: "alpha", "exp_eps" or "eps".
  const char* parameter() const;
  /// The parameter and its value, for messages ("exp_eps = 3").
  std::string describe() const;
  /// Bits of working precision this budget needs beyond d + 128 (default_precision_bits): a large
  /// budget puts α − 1 near 2e^(−ε), and −log2(α − 1) more bits keep q− = (1 − 1/α)/2 apart from 0
  /// in every enclosure; a small one makes α about 2/ε, and the quantities (the pair's gap, the
  /// MSE) are differences of terms of size α² that agree to 1/α², so 2 log2 α more bits keep them
  /// apart (ε = 10^-200: 1340 bits). At most 2^24.
  unsigned long extra_precision_bits() const;
  /// The working precision for this budget at d shared bits: default_precision_bits(d) plus
  /// extra_precision_bits(), at most 2^24 (every command's default, and the library's callers').
  unsigned precision_bits(unsigned long bits) const;
  /// The value for a message: exact when short, else its leading digits ("1e-300 (exactly …)").
  std::string shown_value() const;
};

}  // namespace corbin
