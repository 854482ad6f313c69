#pragma once
// Worst cases over inputs of a per-coordinate MSE (fl/registry.hpp: Mechanism::worst_aggregate_mse).
//
// The server's estimate is the mean of n outputs. When the n clients fall into independent units
// (lone clients, pairs), each unbiased and each with its own inputs, the aggregate MSE is
//     E[(mean(Q) − mean(w))²] = (1/n²) Σ_k E[e_k²]          (utility/aggregate.hpp, zero biases),
// and the units' inputs range independently, so its supremum over inputs is (1/n²) Σ_k sup_k.
// A unit's sup is found exactly where its MSE is a quadratic in the input on known pieces.

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"

namespace corbin {

/// The supremum over [a, b] of the polynomial f of degree at most 2 with f(a) = f0,
/// f((a + b)/2) = f1, f(b) = f2 (three values fix it). With t = (w − (a + b)/2)/((b − a)/2) in
/// [−1, 1], f = f1 + Bt + At², A = (f0 + f2)/2 − f1, B = (f2 − f0)/2: the vertex value
/// f1 − B²/(4A) when A < 0 and |B| < −2A (the vertex inside), else max(f0, f2). Exact for
/// Rational, rounded for double. For Interval a branch is taken only when certified; otherwise
/// the result encloses both: at least max(f0, f2), and at most max(f0, f2, f1 + |B|/2), since
/// with the vertex inside B²/(4|A|) < |B|/2.
template <class T>
T quadratic_sup(const T& f0, const T& f1, const T& f2) {
  using N = NumTraits<T>;
  const T a = T((f0 + f2) / 2 - f1), b = T((f2 - f0) / 2);
  const T abs_b = N::max(b, T(-b)), ends = N::max(f0, f2);
  if constexpr (!std::is_same_v<T, Interval>) {  // Rational: exact; double: the fast path
    if (a < 0 && abs_b < -2 * a) return T(f1 - b * b / (4 * a));
    return ends;
  } else {
    // A branch is taken only when the enclosures' ends separate.
    const T reach = T(-2 * a);
    const bool concave = upper_of(a) < 0, convex = lower_of(a) >= 0;
    if (concave && upper_of(abs_b) < lower_of(reach)) return T(f1 - b * b / (4 * a));  // the vertex inside
    if (convex || (concave && lower_of(abs_b) >= upper_of(reach))) return ends;        // monotone or convex
    return interval_hull(lower_of(ends), upper_of(N::max(ends, T(f1 + abs_b / 2))));
  }
}

/// (1/n²) Σ_k count_k · sup_k: the worst case over inputs of the mean of n clients' outputs,
/// the clients forming `count_k` independent unbiased units of worst-case MSE sup_k each
/// (a lone client, a pair, ...). Raises invalid_argument("n") for n = 0 and
/// invalid_argument("units") when the units do not hold n clients (`clients_k` each).
template <class T>
struct Units {
  std::size_t count, clients;
  T sup;
};
template <class T>
T worst_mean_mse(const std::vector<Units<T>>& units, std::size_t n) {
  using N = NumTraits<T>;
  if (n == 0) throw invalid_argument("n", "0", "at least 1 client");
  std::size_t held = 0;
  T sum(0);
  for (const Units<T>& u : units) {
    held += u.count * u.clients;
    sum = T(sum + N::from(Rational(BigInt(u.count))) * u.sup);
  }
  if (held != n) throw invalid_argument("units", std::to_string(held) + " clients", "exactly n = " + std::to_string(n));
  const T nn = N::from(Rational(BigInt(n)));
  return T(sum / (nn * nn));
}

}  // namespace corbin
