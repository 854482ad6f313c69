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

/// E D² and E D⁴ of D = Σ B_k − Σ y_k over the clients' bits and the shared shift. Given s the
/// B_k are independent Bernoullis with p_k(s) = clamp(k y_k − slot_k(s), 0, 1), so the moments
/// follow from their cumulants about a = Σ p_k(s) − Σ y_k; then the mean over the k shifts.
/// With T = Rational exactly, the continuous V of the definition (the aggregate MSE at given
/// inputs, fl/mechanisms/cq); with T = double the live check's fast path, whose V is a 53-bit
/// uniform, within 2^−53 of the continuous law anyway.
template <class T>
struct CqMomentsOf {
  T m2 = 0, m4 = 0;
};
using CqMoments = CqMomentsOf<double>;
template <class T>
CqMomentsOf<T> cq_error_moments(const std::vector<T>& y);

}  // namespace corbin
