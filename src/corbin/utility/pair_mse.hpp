#pragma once
// Pair utility of Theorem 1: m(Q1, Q2, w1, w2) = E[(Q1 + Q2 − w1 − w2)^2] for CorBinQ, for the
// best coupling of the two LDPQ marginals (the d -> ∞ optimum, Appendix B), and for two
// independent LDPQs (LDP-FL, and CorBinQ at d = 0). One formula, pair_mse, is applied to all
// three laws.

#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

/// What a pair law needs besides its probabilities: L = rα, centered inputs x_i = w_i − c,
/// LDPQ probabilities q_i, and sign(x1 + x2), kept exact so that the optimal coupling's branch
/// is decided without rounding (q1 + q2 − 1 = (x1 + x2)/(2rα)).
template <class T>
struct PairGeometry {
  T level, x1, x2, q1, q2;
  int sum_sign;
};

template <class T>
PairGeometry<T> pair_geometry(const T& alpha, const Rational& center, const Rational& radius,
                              const Rational& w1, const Rational& w2) {
  using N = NumTraits<T>;
  const Rational s = w1 + w2 - 2 * center;
  return PairGeometry<T>{ldpq_level(alpha, radius), N::from(Rational(w1 - center)),
                         N::from(Rational(w2 - center)), ldpq_q(alpha, center, radius, w1),
                         ldpq_q(alpha, center, radius, w2), s < 0 ? -1 : (s > 0 ? 1 : 0)};
}

/// E[(Q1 + Q2 − w1 − w2)^2] = Σ_{s1,s2} P(s1, s2) (s1 L + s2 L − x1 − x2)^2.
template <class T>
T pair_mse(const JointLaw<T>& law, const PairGeometry<T>& g) {
  const T sum = T(g.x1 + g.x2);
  auto sq = [](const T& x) { return T(x * x); };
  return T(law.pp * sq(T(2 * g.level - sum)) + (law.pm + law.mp) * sq(sum) +
           law.mm * sq(T(-2 * g.level - sum)));
}

/// E[Q1 + Q2 − w1 − w2]; zero for every unbiased pair.
template <class T>
T pair_bias(const JointLaw<T>& law, const PairGeometry<T>& g) {
  return T(g.level * (2 * law.q1_plus() - 1) + g.level * (2 * law.q2_plus() - 1) - g.x1 - g.x2);
}

/// The countermonotone coupling of the LDPQ marginals, Eqs. (th:1:opt_dist)-(th:1:opt_dist_2):
/// it puts no mass on (+,+) when w1 + w2 <= 2c and none on (−,−) otherwise, which minimises
/// P(+,+) + P(−,−) and hence the MSE among all couplings.
template <class T>
JointLaw<T> optimal_coupling(const PairGeometry<T>& g) {
  if (g.sum_sign <= 0)
    return JointLaw<T>{T(0), g.q1, g.q2, T(1 - g.q1 - g.q2), g.q1, g.q2};
  return JointLaw<T>{T(g.q1 + g.q2 - 1), T(1 - g.q2), T(1 - g.q1), T(0), g.q1, g.q2};
}

/// Two independent LDPQs.
template <class T>
JointLaw<T> independent_law(const PairGeometry<T>& g) {
  return JointLaw<T>{T(g.q1 * g.q2), T(g.q1 * (1 - g.q2)), T((1 - g.q1) * g.q2),
                     T((1 - g.q1) * (1 - g.q2)), g.q1, g.q2};
}

/// Theorem 1's additive term r^2 α^2 / 2^(d−6).
template <class T>
T paper_gap_bound(const T& alpha, const Rational& radius, unsigned long bits) {
  const T level = ldpq_level(alpha, radius);
  return T(level * level * 64 / NumTraits<T>::from(pow2(bits)));
}

/// Theorems 2 and 3's pair constant ((√2 − 1)α + 1)((√2 + 1)α − 1), which is α² + 2α − 1 exactly
/// (the √2 cancel), so the bounds stay rational for rational α.
template <class T>
T paper_pair_constant(const T& alpha) {
  return T(alpha * alpha + 2 * alpha - 1);
}

/// Everything `corbin joint` and `corbin mse` print for one pair.
template <class T>
struct PairUtility {
  JointLaw<T> law;
  T mse, mse_optimal, mse_ldp, gap, paper_gap_bound;
};

template <class T>
PairUtility<T> pair_utility(const T& alpha, const Rational& center, const Rational& radius,
                            const Rational& w1, const Rational& w2, unsigned long bits,
                            Variant variant) {
  const JointLaw<T> law = corbinq_joint_law(alpha, center, radius, w1, w2, bits, variant);
  const PairGeometry<T> g = pair_geometry(alpha, center, radius, w1, w2);
  const T mse = pair_mse(law, g), optimal = pair_mse(optimal_coupling(g), g);
  return PairUtility<T>{law, mse, optimal, pair_mse(independent_law(g), g), T(mse - optimal),
                        paper_gap_bound(alpha, radius, bits)};
}

/// The supremum over w1, w2 in [c − r, c + r] of the corrected CorBinQ's gap to the optimum,
/// with a pair of inputs that attains it.
///
/// Derivation (checked against brute force in the tests): with u = 2^d q1 = a1 + f1 and
/// v = 2^d (1 − q2) = a2 + f2, the corrected law coincides with the optimal coupling unless
/// a1 = a2, and then P(+,−) falls short by (min(f1,f2) − f1 f2)/2^d, so
///     gap = 8 (rα)^2 (min(f1, f2) − f1 f2) / 2^d · [a1 = a2].
/// Over one cell, f1 = f2 = f is best, giving f(1 − f), largest at f = 1/2. u and v range over
/// [2^(d−1) − 2^(d−1)/α, 2^(d−1) + 2^(d−1)/α]. If a half-integer lies in that range the
/// supremum is 2 (rα)^2 / 2^d, attained at u = v = that half-integer (w1 + w2 = 2c); otherwise
/// (2^d < α) the best f is the range's half-width 2^(d−1)/α, attained at w1 = c + r, w2 = c − r.
/// The value is computed by evaluating the exact law at the maximiser, not from this formula.
template <class T>
struct GapSupremum {
  T value;
  T w1, w2;
  JointLaw<T> law;
};

template <class T>
GapSupremum<T> sup_gap(const T& alpha, const Rational& center, const Rational& radius,
                       unsigned long bits) {
  using N = NumTraits<T>;
  check_radius(radius);
  if constexpr (std::is_same_v<T, double>) check_bits(static_cast<long long>(bits), kMaxBitsDouble);
  else check_bits(static_cast<long long>(bits));
  const BigInt two_d = pow2(bits);
  const T d = N::from(two_d);
  const Rational middle = Rational(two_d) / 2;
  const T half_width = T(d / (2 * alpha));
  // The half-integer nearest the middle of the range: the middle itself for d = 0.
  const Rational half_point = bits == 0 ? middle : Rational(middle + Rational(1, 2));
  const bool half_in_range =
      !N::less(half_width, N::from(Rational(half_point - middle)), "2^(d-1)/α < 1/2");
  const T u = half_in_range ? N::from(half_point) : T(N::from(middle) + half_width);
  const Cell<T> cell = split(u, "2^d q1");  // v = u: q2 = 1 − q1, same cell
  const T level = ldpq_level(alpha, radius);
  const T q1 = T(u / d);
  const T x1 = T(level * (2 * q1 - 1));
  const PairGeometry<T> g{level, x1, T(-x1), q1, T(1 - q1), 0};
  const JointLaw<T> law = joint_law_from_cells(cell, cell, two_d, Variant::corrected);
  const T c = N::from(center);
  return GapSupremum<T>{T(pair_mse(law, g) - pair_mse(optimal_coupling(g), g)), T(c + x1),
                        T(c - x1), law};
}

/// The supremum over all inputs of the d → ∞ pair MSE (countermonotone coupling). With
/// s = (w1 − c) + (w2 − c) and L = rα that MSE is 2L|s| − s², largest at |s| = min(L, 2r): L² for
/// α <= 2 and 4r²(α − 1) beyond. The value is evaluated through the exact law at the witness
/// w1 = w2 = c + min(L, 2r)/2 (the audit's T2b checks that no grid input exceeds it).
struct OptimalPairSupremum {
  Rational value, w;
};
inline OptimalPairSupremum sup_optimal_pair_mse(const Rational& alpha, const Rational& center,
                                                const Rational& radius) {
  const Rational level = radius * alpha;
  const Rational w = center + (level <= 2 * radius ? level : Rational(2 * radius)) / 2;
  const PairGeometry<Rational> g = pair_geometry(alpha, center, radius, w, w);
  return {pair_mse(optimal_coupling(g), g), w};
}

}  // namespace corbin
