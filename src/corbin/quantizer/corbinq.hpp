#pragma once
// CorBinQ (Alg. 2): two clients with inputs w1, w2 share Z uniform on {0,1}^d and quantize to
// c ± rα with thresholds T1 = B_d(floor(2^d q1)) and T2 = B_d(floor(2^d (1 − q2))); Q1 says "+"
// below T1, Q2 says "−" below T2, ties are broken by private coins. This header gives the exact
// joint law of (Q1, Q2) in closed form, for three readings of the algorithm:
//
//   corrected       line 14 compares T2 ≺ Z (the evident intent; marginals are LDPQ's)
//   as_printed      line 14 compares T1 ≺ Z, exactly as printed: Q2's "else" branch then covers
//                   T2 ⪯ Z ⪯ T1, so Q2 depends on w1 and is biased
//   reference_code  the authors' implementation (REFERENCES.md): as corrected, except that when
//                   the threshold index is 2^d − 1 the tie probability is computed from 2^d − 2,
//                   exceeds 1, and the tie always resolves to the client's own sign
//
// With u = 2^d q1 = a1 + f1 and v = 2^d (1 − q2) = a2 + f2 (a = floor, f = fractional part),
// every conditional law z -> P(output | Z = z) is a step function on {0, ..., 2^d − 1}
// (step_function.hpp); marginals and the joint law are sums and inner products of those,
// O(1) in d.

#include <string_view>

#include "corbin/number/traits.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/quantizer/step_function.hpp"

namespace corbin {

enum class Variant { corrected, as_printed, reference_code };

/// "corrected", "as-printed", "reference-code"; anything else raises invalid_argument(variant).
Variant parse_variant(std::string_view text);
const char* to_string(Variant v);

/// Largest working precision, in bits, anything asks for: the user's, a `corbin check` entry's, a
/// budget's default (Budget::precision_bits). The certified paths' work grows faster than the
/// precision's square (`corbin pldp` at ε = 1: 0.4 s at 2^14 bits, 2.7 s at 2^16; a `corbin
/// check` entry took 25 s at 2^24, and a spec may hold 10 000).
constexpr unsigned long kMaxPrecisionBits = 1ul << 16;
/// Largest d accepted by the exact paths (2^d is a d-bit integer; nothing is O(2^d)). The default
/// precision is d + 128 bits, so d stays well below kMaxPrecisionBits (with a budget's own need:
/// `corbin pldp` at ε = 1 took 8.7 s at d = 10^5, 0.6 s at 2^14).
constexpr unsigned long kMaxBits = 1ul << 15;
/// Largest d accepted by the double fast path (2^d q must be representable with room for f).
constexpr unsigned long kMaxBitsDouble = 40;
/// Largest d the brute-force enumerator accepts (2^d iterations).
constexpr unsigned long kMaxBitsEnumerator = 24;

/// Raises invalid_argument(bits) unless 0 <= bits <= limit.
void check_bits(long long bits, unsigned long limit = kMaxBits);

/// Working precision for certified (transcendental ε) evaluation at d shared bits: the floors of 2^d q need
/// about d bits of q, so the default carries d + 128 bits (or PrecisionFloor's, where more).
unsigned default_precision_bits(unsigned long bits);

/// P(Q1 = c + s1 rα, Q2 = c + s2 rα); the first sign belongs to Q1.
/// The marginals are stored, not summed from the cells: for an interval law, pp + pm would widen
/// a certainly-zero or certainly-one marginal into an enclosure that straddles it.
template <class T>
struct JointLaw {
  T pp, pm, mp, mm;
  T plus1, plus2;  ///< P(Q1 = c + rα), P(Q2 = c + rα)
  T q1_plus() const { return plus1; }
  T q2_plus() const { return plus2; }
};

template <class T>
StepFunction<T> threshold_law(const BigInt& index, const T& tie) {
  StepFunction<T> f;
  f.add(BigInt(0), index, T(1));
  f.add(index, BigInt(index + 1), tie);
  return f;
}

/// Tie probability at Z = T: the fractional part (Alg. 2, lines 9 and 17), or 1 in the reference
/// code when the index is 2^d − 1 (its idx' = 2^d − 2 makes (P − idx'/2^d)·2^d = f + 1 > 1).
template <class T>
T tie_probability(const Cell<T>& cell, const BigInt& two_d, Variant variant) {
  if (variant == Variant::reference_code && cell.index == two_d - 1) return T(1);
  return cell.frac;
}

/// The exact joint law from the threshold cells u = a1 + f1 and v = a2 + f2 (f may be 1 to
/// denote the limit from the left of a + 1). Exact for Rational, an enclosure for Interval.
template <class T>
JointLaw<T> joint_law_from_cells(const Cell<T>& u, const Cell<T>& v, const BigInt& two_d,
                                 Variant variant) {
  using N = NumTraits<T>;
  // Q1: "+" iff Z ≺ T1, tie at Z = T1 (Alg. 2, lines 4-11; the same in every variant).
  const StepFunction<T> q1_plus = threshold_law(u.index, tie_probability(u, two_d, variant));
  // Q2: "−" iff Z ≺ T2; what follows depends on line 14.
  StepFunction<T> q2_minus;
  if (variant == Variant::as_printed) {
    // ELSIF T1 ≺ Z -> "+"; ELSE (T2 ⪯ Z ⪯ T1) -> "−" with probability f2.
    q2_minus.add(BigInt(0), v.index, T(1));
    q2_minus.add(v.index, BigInt(u.index + 1), v.frac);
  } else {
    q2_minus = threshold_law(v.index, tie_probability(v, two_d, variant));
  }
  const T d = N::from(two_d);
  const T s1 = q1_plus.sum(), s2 = q2_minus.sum(), s12 = inner(q1_plus, q2_minus);
  return JointLaw<T>{T((s1 - s12) / d), T(s12 / d), T((d - s1 - s2 + s12) / d),
                     T((s2 - s12) / d), T(s1 / d),             T(1 - s2 / d)};
}

/// Threshold cells of Alg. 2, line 3: u = 2^d q1 and v = 2^d (1 − q2).
template <class T>
std::pair<Cell<T>, Cell<T>> threshold_cells(const T& q1, const T& q2, const BigInt& two_d) {
  const T d = NumTraits<T>::from(two_d);
  return {split(T(d * q1), "2^d q1"), split(T(d * (1 - q2)), "2^d (1 - q2)")};
}

/// Exact joint law of CorBinQ (Alg. 2) for inputs w1 (leader), w2 (follower); closed form,
/// O(1) in d. Inputs are validated (r > 0, w in [c − r, c + r], 0 <= d).
template <class T>
JointLaw<T> corbinq_joint_law(const T& alpha, const Rational& center, const Rational& radius,
                              const Rational& w1, const Rational& w2, unsigned long bits,
                              Variant variant) {
  check_radius(radius);
  check_weight("w1", w1, center, radius);
  check_weight("w2", w2, center, radius);
  if constexpr (std::is_same_v<T, double>) check_bits(static_cast<long long>(bits), kMaxBitsDouble);
  else check_bits(static_cast<long long>(bits));
  const BigInt two_d = pow2(bits);
  const auto [u, v] = threshold_cells(ldpq_q(alpha, center, radius, w1),
                                      ldpq_q(alpha, center, radius, w2), two_d);
  return joint_law_from_cells(u, v, two_d, variant);
}

}  // namespace corbin
