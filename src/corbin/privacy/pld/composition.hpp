#pragma once
// Composition over m coordinates and T rounds of the per-coordinate aggregate law. The bound
// goes through Rényi DP: for an integer order λ >= 2, D_λ(P‖Q) = ln(Σ_x P(x)^λ Q(x)^(1−λ))/(λ − 1)
// over the finite law, enclosed with MPFI (the exact rational sum would have millions of digits
// at high orders); RDP adds over the k composed mechanisms, and (Mironov 2017, Prop. 3)
// k·D_λ + ln(1/δ)/(λ − 1) is an ε at δ. The bound is the upper end of the enclosure, so it never
// understates; the tests hold it against the exact k-fold composition (PrivacyLoss::compose)
// for k = 2, 3.

#include "corbin/number/interval.hpp"
#include "corbin/privacy/exact/sum_law.hpp"

namespace corbin {

struct RenyiBound {
  bool infinite = false;  ///< some output has P > 0 = Q: no finite RDP
  Real eps;               ///< upper bound on ε at δ after k compositions
  unsigned order = 0;     ///< the λ that gave it
};

/// min over λ in [2, max_order] of k·max(D_λ(P‖Q), D_λ(Q‖P)) + ln(1/δ)/(λ − 1), for k = m·T
/// compositions; `infinite` if either law has mass where the other has none.
RenyiBound rdp_epsilon(const SumLaw& p, const SumLaw& q, const BigInt& compositions,
                       const Rational& delta, unsigned max_order = 256);

}  // namespace corbin
