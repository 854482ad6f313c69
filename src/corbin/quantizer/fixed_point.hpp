#pragma once
// The samplers' fixed-point rule, shared by the CPU samplers (sampler.cpp) and the GPU kernels
// (fl/round_kernels.cu): q̂ = n / 2^K with K = 32, n = round(2^K q(x)) clamped to [n_lo, n_hi], and
// a tie Z = T decided by the low K − d bits of a private coin. Written with CORBIN_HD and plain
// arithmetic so that both compile it from this one text; every operation is a correctly rounded
// IEEE operation with no fused multiply-add (the build turns contraction off on the host, and the
// device branch spells each rounding out), so both see the same n for the same x.

#include <cstdint>
#include <cstring>

#include "corbin/number/device.hpp"

namespace corbin {

constexpr unsigned kFixedBits = 32;

/// A tie Z = T (Alg. 2, lines 9 and 15) on integers: the client's private coin wins iff its low
/// F = K − d bits fall below those of the threshold (n for the leader, 2^K − n for the
/// follower), which happens with probability (threshold mod 2^F)/2^F. Shared by corbinq_decide,
/// which the tests check exhaustively against the exact law, and by the vectorised sampler.
CORBIN_HD bool tie_wins(std::uint64_t coin, std::uint64_t threshold, std::uint64_t mask) {
  return (coin & mask) < (threshold & mask);
}

/// Constants of the vectorised CorBinQ pass (sampler.cpp) and of the GPU kernels.
struct SamplerConstants {
  double center, scale, offset;
  double n_lo, n_hi;  // integers below 2^32, exact in a double
  unsigned f_high, f_low;  // the shift K − d in two halves, each below 32 (K − d = 32 at d = 0)
  float plus, minus;
};

/// n = round(2^K q(x)) clamped to [n_lo, n_hi]. Everything stays in double until the end, where
/// vector units have min and max (AVX2 has none for 64-bit integers); clamping before rounding
/// is the same as after because the bounds are integers. Rounding is to nearest-even through the
/// 2^52 trick: adding 2^52 leaves the integer in the low mantissa bits, and 1 <= n < 2^32
/// (0 < q < 1) makes those the low 32 bits of the pattern.
///
/// There is no separate clip of x to [c − r, c + r] (the paper's footnote): t is monotone in x and
/// within 1e-6 of 2^K q(x), while n_lo = ceil(2^K q(c − r)) and n_hi = floor(2^K q(c + r)), so
/// every x <= c − r already rounds to at most n_lo and every x >= c + r to at least n_hi; the
/// clamp gives them exactly the clipped value's n (±inf included). Branch-free so that loops over
/// it vectorise; the bulk pass and the tie pass share it, so both see the same n. The two
/// selects are std::max(u, n_lo) and std::min(·, n_hi) written out, so that a NaN x takes the
/// same (flagged, never used) path on both processors.
CORBIN_HD std::uint32_t fixed_point(double x, const SamplerConstants& k) {
#if defined(__CUDA_ARCH__)
  const double u = __dadd_rn(__dmul_rn(__dsub_rn(x, k.center), k.scale), k.offset);
#else
  const double u = (x - k.center) * k.scale + k.offset;
#endif
  const double above = u < k.n_lo ? k.n_lo : u;
  const double t = k.n_hi < above ? k.n_hi : above;
  const double shifted = t + 4503599627370496.0;  // 2^52
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(static_cast<unsigned long long>(__double_as_longlong(shifted)));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  return static_cast<std::uint32_t>(bits);
#endif
}

/// The CorBinQ thresholds T = n >> (K − d) of a leader (n) and a follower (2^K − n, Alg. 2,
/// line 14, which is 0u − n in 32-bit arithmetic because n >= 1); the shift is split in two
/// because K − d may be 32.
CORBIN_HD std::uint32_t leader_threshold(std::uint32_t n, const SamplerConstants& k) {
  return n >> k.f_high >> k.f_low;
}
CORBIN_HD std::uint32_t follower_threshold(std::uint32_t n, const SamplerConstants& k) {
  return (0u - n) >> k.f_high >> k.f_low;
}

}  // namespace corbin
