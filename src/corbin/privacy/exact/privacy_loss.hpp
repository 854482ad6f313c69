#pragma once
// The privacy-loss distribution of a pair of finite laws (P, Q), exactly: for each likelihood
// ratio L = P(x)/Q(x) the P- and Q-mass of the outputs with that ratio, plus the P-mass where
// Q = 0 (ratio ∞). Everything (ε, δ) about P against Q follows from it:
//     δ(e^ε) = mass_∞ + Σ_{L > e^ε} (P_L − e^ε Q_L)          (hockey-stick divergence)
// and composition (independent mechanisms, e.g. coordinates or rounds) multiplies ratios and
// masses, so the exact k-fold composition is a repeated product (`compose`).

#include <map>
#include <utility>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/exact/sum_law.hpp"

namespace corbin {

struct PrivacyLoss {
  std::map<Rational, std::pair<Rational, Rational>> atoms;  ///< L -> (P-mass, Q-mass), Q > 0
  Rational infinite_mass{0};                                ///< P-mass where Q = 0

  /// P against Q (P's outputs, Q's mass at the same values).
  static PrivacyLoss of(const SumLaw& p, const SumLaw& q);

  /// δ(ε) at e^ε = exp_eps (exact).
  Rational delta_at(const Rational& exp_eps) const;
  /// δ(ε) at a transcendental e^ε, every max(0, ·) decided by a certified comparison.
  Interval delta_at(const Interval& exp_eps) const;

  /// The smallest e^ε >= 1 with δ(ε) <= delta: on each segment between consecutive ratios
  /// δ = A − e^ε B with rational A, B, so the crossing is the rational (A − delta)/B.
  /// `infinite` when mass_∞ > delta.
  struct AtDelta {
    bool infinite = false;
    Rational exp_eps{1};
  };
  AtDelta exp_eps_for(const Rational& delta) const;

  /// The loss of independent P1 × P2 against Q1 × Q2.
  static PrivacyLoss compose(const PrivacyLoss& a, const PrivacyLoss& b);
  /// The k-fold composition with itself (k >= 1; the atoms multiply, so keep k small).
  PrivacyLoss power(unsigned k) const;
};

/// e^ε(δ) in the worse of the two directions (P against Q, Q against P), for `compositions`
/// independent uses of the mechanism (exact; 1 by default).
PrivacyLoss::AtDelta exp_eps_for_delta(const SumLaw& p, const SumLaw& q, const Rational& delta,
                                       unsigned compositions = 1);

/// δ(ε) in the worse direction, exactly.
Rational delta_for_exp_eps(const SumLaw& p, const SumLaw& q, const Rational& exp_eps);

}  // namespace corbin
