#pragma once
// Directed rounding for `double`, the fast path of the certified accountant (privacy/window_pmf,
// privacy/pld). Every quantity there is a non-negative mass, so an upper bound of a result is
// the result of upper bounds rounded up, and a lower bound that of lower bounds rounded down.
//
// The named choice: operations run in the default round-to-nearest mode and are then moved one
// double outward (succ/pred). A correctly rounded result is within half a unit in the last place
// of the exact one, so its neighbour above (below) bounds it, subnormals included. This needs no
// change of the FPU's rounding mode, which GCC may reorder arithmetic across (bug 34678).
// Long sums of products, the hot loops, are computed plainly in round-to-nearest and widened
// afterwards by Higham's bound (`SumWidening`), so that they stay vectorisable.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace corbin::directed {

/// The next double above x (x finite; +∞ stays).
inline double succ(double x) {
  if (x == 0) return std::numeric_limits<double>::denorm_min();
  if (x == std::numeric_limits<double>::infinity()) return x;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}
/// The next double below x.
inline double pred(double x) { return -succ(-x); }

// A result that is exactly 0 stays 0: a sum or difference that rounds to 0 is exact (with
// gradual underflow a nonzero one never rounds to 0), and so is a product or quotient with a
// factor or dividend 0. Moved outward, it became ±2^-1074: masses where there are none (above
// every loss, at +∞), which put ε_upper at +∞ for δ below about 1e-320.
inline double add_up(double a, double b) {
  const double s = a + b;
  return s == 0 ? 0.0 : succ(s);
}
inline double add_down(double a, double b) {
  const double s = a + b;
  return s == 0 ? 0.0 : pred(s);
}
inline double sub_up(double a, double b) { return add_up(a, -b); }
inline double sub_down(double a, double b) { return add_down(a, -b); }
inline double mul_up(double a, double b) { return a == 0 || b == 0 ? 0.0 : succ(a * b); }
inline double mul_down(double a, double b) { return a == 0 || b == 0 ? 0.0 : pred(a * b); }
inline double div_up(double a, double b) { return a == 0 ? 0.0 : succ(a / b); }
inline double div_down(double a, double b) { return a == 0 ? 0.0 : pred(a / b); }

/// For a sum S of at most `terms` non-negative products of `factors` doubles each, computed in
/// round-to-nearest by recursive summation: the computed s = Σ x_i (1 + θ_i) with
/// |θ_i| <= γ = m u / (1 − m u), m = terms + factors − 1, u = 2^-53 (Higham, Accuracy and
/// Stability, Lemma 3.1), plus at most 2^-1075 per product lost to underflow. Hence
///     (s − terms·factors·2^-1074)/(1 + γ) <= S <= (s + terms·factors·2^-1074)/(1 − γ).
class SumWidening {
 public:
  SumWidening(std::size_t terms, std::size_t factors) {
    const double m = static_cast<double>(terms + factors);  // >= terms + factors − 1
    const double mu = mul_up(m, 0x1p-53);
    gamma_ = div_up(mu, sub_down(1.0, mu));
    underflow_ = mul_up(mul_up(static_cast<double>(terms), static_cast<double>(factors)), 0x1p-1074);
  }
  double up(double s) const { return div_up(add_up(s, underflow_), sub_down(1.0, gamma_)); }
  double down(double s) const {
    const double d = div_down(sub_down(s, underflow_), add_up(1.0, gamma_));
    return d > 0 ? d : 0.0;
  }

 private:
  double gamma_, underflow_;
};

}  // namespace corbin::directed
