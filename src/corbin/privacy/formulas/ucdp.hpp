#pragma once
// User-level central DP of AugCorBin-FL (Theorem 3) as formulas: the bound exactly as printed,
// and the same quantity re-derived from cpSGD's Theorem 1 (Agarwal et al. 2018, Eq. 7; the
// form restated in REFERENCES.md) with the substitutions of the paper's proof (Appendix D).
//
// Every quantity is an enclosure (MPFI) at the working precision; preconditions are decided
// by certified comparisons (or raise `undecidable`). Each term is reported on its own, so a
// reader sees where the printed formula departs from the theorem it cites.

#include <string>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/quantizer/budget.hpp"

namespace corbin {

/// The setting of Theorem 3: m coordinates, n clients, a fraction γ of them on LDPQ, the
/// target δ, the radius r (max over coordinates) and the PLDP budget.
struct UcdpSetting {
  unsigned long m = 1;
  unsigned long n = 0;
  Rational gamma, delta, radius;
  Budget budget;
};

/// Raises invalid_argument for m < 1 (m), n < 2 (n), γ outside (0, 1] (gamma), nγ < 2
/// (gamma: the proof's N = nγ − 1 must be at least 1), δ outside (0, 1) (delta), r <= 0
/// (radius).
void check_ucdp_setting(const UcdpSetting& s);

struct NamedValue {
  std::string name;
  Interval value;
};

/// A formula's value, its terms, and its precondition lhs >= max(rhs...) decided.
struct UcdpFormula {
  Interval eps_u;
  std::vector<NamedValue> terms;         ///< eps_u is the sum of these
  std::vector<NamedValue> parameters;    ///< e_p, b_p, N, p, s, Δs ... as used
  Interval precondition_lhs;             ///< (nγ − 1)(1/4 − 1/(4α²)), or N p (1 − p)
  std::vector<NamedValue> precondition_rhs;  ///< the arguments of the max
  bool precondition = false;             ///< lhs >= every rhs (certified)
};

/// Eq. (th:3:1) and its precondition exactly as printed, with the intended reading of the
/// second term, 8(log(1.25/δ) + log(20m/δ)·log(10/δ))/(3(nγ − 1)) (the printed braces close
/// inside the logarithm). log is the natural logarithm.
UcdpFormula theorem3_printed(const UcdpSetting& s);

/// cpSGD Theorem 1 for the mechanism f(D) + s(Z − Np), Z ~ Binomial(N, p) in each of `dim`
/// coordinates, with sensitivities Δ1, Δ2, Δ∞ of f.
struct CpsgdInput {
  Interval big_n, p, s, delta1, delta2, delta_inf;
  unsigned long dim = 1;
  Rational delta;
};
UcdpFormula cpsgd_theorem1(const CpsgdInput& in);

/// The proof's substitutions: N = nγ − 1, p = 1/2 − 1/(2α), s = 2, Δ1 = 2mrα, Δ2 = 2√m rα,
/// Δ∞ = 2rα, dim = m. With consistent_units the step of the binomial noise is expressed in the
/// units of the released sum (s = 2rα) while the Δs stay in those units, so ε no longer scales
/// with r (a ratio of probabilities cannot depend on the units of the weights).
UcdpFormula theorem3_cpsgd(const UcdpSetting& s, bool consistent_units);

}  // namespace corbin
