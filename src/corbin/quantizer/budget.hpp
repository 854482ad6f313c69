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
  /// Largest ε from which α is enclosed (alpha_interval, and every quantizer's law): α − 1 is
  /// about 2e^−ε, which takes about 1.44ε bits of working precision, and the work at that
  /// precision grows faster than its square (on 2 cores `corbin pldp`: 0.5 s at ε = 10^4, 16 s
  /// at 10^5, past a minute at 10^6). Uses of ε alone (e^ε, the Laplace and Gaussian noise) keep
  /// kMaxEps.
  static inline const Rational kMaxAlphaEps{10000};
  Kind kind;
  Rational value;

  /// Validates the value for its kind (α > 1, e^ε > 1, 0 < ε <= kMaxEps); raises
  /// invalid_argument naming alpha, exp_eps or eps.
  static Budget make(Kind kind, const Rational& value);

  bool exact() const { return kind != Kind::eps; }
  /// α exactly; only for exact budgets.
  Rational alpha_exact() const;
  /// Enclosure of α at the working precision (a point interval's enclosure for exact budgets).
  /// Raises invalid_argument (eps) past kMaxAlphaEps.
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
  /// apart (ε = 10^-200: 1340 bits). At most what ε = kMaxAlphaEps needs (no α is made beyond),
  /// and at most kMaxPrecisionBits.
  unsigned long extra_precision_bits() const;
  /// The working precision for this budget at d shared bits: default_precision_bits(d) plus
  /// extra_precision_bits(), at most kMaxPrecisionBits (every command's default, and the library's
  /// callers').
  unsigned precision_bits(unsigned long bits) const;
  /// The value for a message: exact when short, else its leading digits ("1e-300 (exactly …)").
  std::string shown_value() const;

  /// e^ε below this, given as e^ε, looks like an ε typed in the wrong unit: ε below ln 1.5 ≈ 0.405
  /// is rarely meant, while ε of 1 to 1.5 (ln 3 = 1.0986 the commonest) typed as e^ε is accepted
  /// and gives an ε 3 to 12 times smaller; every ε below 1 typed so is refused already (e^ε > 1).
  static inline const Rational kExpEpsLooksLikeEps{3, 2};
  /// One line where the budget looks like the other unit, else empty (a warning: the budget is
  /// valid). e^ε below kExpEpsLooksLikeEps given as e^ε: "`given_as` `typed` is e^ε, so ε = …;
  /// for ε = `typed` give `eps_as``typed`". `typed` is the value as written; `given_as` and
  /// `eps_as` name the two ways in the caller's words (the CLI's option names, Python's
  /// keywords "exp_eps =" and "eps=", a spec's field).
  std::string unit_warning(const std::string& given_as, const std::string& typed, const std::string& eps_as) const;
};

}  // namespace corbin
