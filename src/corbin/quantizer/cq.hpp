#pragma once
// Correlated quantization, one bit (Suresh, Sun, Ro, Yu, ICML 2022), the baseline of the paper's
// Experiment 5: k clients with positions y ∈ [0, 1] (x = l + 2r·y) share one uniform shift s per
// coordinate; client k's slot is (s + k) mod k_total, the public reference notebook's cyclic form
// of a shared random permutation, and it sends the top level iff (slot + V)/k_total < y with V its
// private uniform. Unbiased; no privacy guarantee.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/number/rational.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin {

/// The shared shifts, uniform in {0, …, k − 1} per coordinate, by rejection on 32-bit ChaCha20
/// words (exactly uniform). Raises invalid_argument(k) unless 1 <= k <= 2^32.
std::vector<std::size_t> cq_shifts(const Key& key, std::uint32_t stream, std::size_t count, std::size_t k);

/// Client `rank` of k sends the top level at position y, shift s and private uniform v.
inline bool cq_top(double y, std::size_t shift, std::size_t rank, std::size_t k, double v) {
  return static_cast<double>((shift + rank) % k) + v < static_cast<double>(k) * y;
}

/// E D² and E D⁴ of D = Σ B_k − Σ y_k over the clients' bits and the shared shift, the clients
/// in the rank order given (the live check's: the round's order is drawn). Given s the B_k are
/// independent Bernoullis with p_k(s) = clamp(k y_k − slot_k(s), 0, 1), so the moments follow
/// from their cumulants about a = Σ p_k(s) − Σ y_k; then the mean over the k shifts.
/// In double: V is a 53-bit uniform, so its law is within 2^−53 of the continuous one anyway.
struct CqMoments {
  double m2 = 0, m4 = 0;
};
CqMoments cq_error_moments(const std::vector<double>& y);

/// E D² over the shared shift and a uniformly random rank order as well (the server's order of a
/// round, fl/mechanism.cpp: draw_roles), exactly, with the continuous V of the definition. The
/// slots are then a uniformly random permutation of {0, …, k − 1}, so with f_i(s) = clamp(k y_i −
/// s, 0, 1) (whose sum over s is k y_i), F(s) = Σ_i f_i(s), G(s) = Σ_i f_i(s)² and Y = Σ_i y_i:
///     E D² = Y − Y² + Σ_(i≠j) E[f_i f_j] = Y − Y² + (k²Y² − k² Σ_i y_i² − Σ_s F(s)² + Σ_s G(s)) / (k(k − 1))
/// for k >= 2 (two clients' slots are a uniform pair of distinct values), y(1 − y) for k = 1.
/// O(k): f_i is 1 below ⌊k y_i⌋, its fractional part there and 0 above. Raises
/// invalid_argument(y) for none, or a y outside [0, 1].
Rational cq_random_order_m2(const std::vector<Rational>& y);

}  // namespace corbin
