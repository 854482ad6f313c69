#pragma once
// Samplers for LDPQ and CorBinQ pairs over flat float arrays.
//
// Probabilities are fixed point: q̂ = n / 2^K with K = 32 and n an integer, so every decision is
// an integer comparison and the sampler's law is known exactly (no floating-point threshold
// drift). n is clamped to [ceil(2^K q(c − r)), floor(2^K q(c + r))], computed exactly (or with
// certified bounds for a transcendental ε): the realised probabilities then stay inside the LDPQ range and the
// sampler is ε-PLDP for its own rounded law, never slightly above e^ε.
//
// CorBinQ on integers (Alg. 2, corrected): with F = K − d, the leader's threshold is
// a1 = n1 >> F and its tie probability (n1 mod 2^F)/2^F; the follower uses 2^K − n2 likewise.
// Z (d bits per parameter) comes from the pair's shared ChaCha20 stream; each tie consumes one
// word of the tying client's private stream. Parameters are processed in chunks of kChunk and
// each chunk's randomness is addressed by its index (counter-based).

#include <cstddef>
#include <algorithm>
#include <cstdint>

#include "corbin/quantizer/budget.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/fixed_point.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin {

/// Alg. 2 on integers with K = total_bits: returns (Q1 = +, Q2 = +) given Z = z and the
/// private words u1, u2 (only their low K − d bits are used, and only at ties).
struct PairSigns {
  bool plus1, plus2;
};
inline PairSigns corbinq_decide(std::uint64_t n1, std::uint64_t n2, unsigned bits,
                                unsigned total_bits, std::uint64_t z, std::uint64_t u1,
                                std::uint64_t u2) {
  const unsigned f = total_bits - bits;
  const std::uint64_t mask = (std::uint64_t{1} << f) - 1;
  const std::uint64_t v = (std::uint64_t{1} << total_bits) - n2;
  const std::uint64_t a1 = n1 >> f, a2 = v >> f;
  const bool plus1 = z < a1 || (z == a1 && tie_wins(u1, n1, mask));
  const bool minus2 = z < a2 || (z == a2 && tie_wins(u2, v, mask));
  return {plus1, !minus2};
}

/// The exact joint law the integer kernel realises for fixed-point n1, n2 with K = total_bits and
/// d = bits shared bits: what CorbinqPairSampler draws (tested exhaustively against
/// corbinq_decide for small K).
JointLaw<Rational> fixed_point_joint_law(std::uint64_t n1, std::uint64_t n2, unsigned bits,
                                         unsigned total_bits = kFixedBits);

/// q(w) in fixed point for float inputs.
class FixedPointLaw {
 public:
  FixedPointLaw(const Budget& budget, const Rational& center, const Rational& radius);

  /// n = round(2^K q(w)) clamped to [n_lo, n_hi], which is the n of w clipped to [c − r, c + r] (the
  /// paper's footnote on clipping). A NaN w sets `nan_seen` and maps to the center.
  std::uint64_t fixed_q(float w, bool& nan_seen) const {
    const double x = static_cast<double>(w);
    nan_seen |= x != x;
    return fixed_point(x != x ? center_ : x, constants(0));
  }
  float plus_value() const { return static_cast<float>(center_ + level_); }
  float minus_value() const { return static_cast<float>(center_ - level_); }
  std::uint64_t n_lo() const { return n_lo_; }
  SamplerConstants constants(unsigned f) const {
    return {center_,
            scale_,
            kHalf,
            static_cast<double>(n_lo_),
            static_cast<double>(n_hi_),
            f / 2,
            f - f / 2,
            plus_value(),
            minus_value()};
  }
  std::uint64_t n_hi() const { return n_hi_; }

 private:
  static constexpr double kHalf = 2147483648.0;  // 2^(K−1)
  double center_, level_, scale_;
  std::uint64_t n_lo_, n_hi_;
};

class CorbinqPairSampler {
 public:
  static constexpr std::size_t kChunk = 32768;
  static constexpr unsigned kMaxBits = 32;

  /// Raises invalid_argument(bits) unless 0 <= bits <= 32.
  CorbinqPairSampler(const FixedPointLaw& law, unsigned bits, const Key& shared,
                     const Key& private_leader, const Key& private_follower,
                     std::uint32_t stream);

  /// Quantizes count parameter pairs (w1[i] leader, w2[i] follower). `first` is the global index
  /// of w1[0] and must be a multiple of kChunk, so that any slice reproduces the full run.
  /// Raises invalid_argument naming the first NaN input.
  void sample(const float* w1, const float* w2, float* out1, float* out2, std::size_t count,
              std::uint64_t first = 0) const;

  /// Z as bytes, for a protocol that sends Z rather than deriving it (Alg. 3, line 17): per
  /// chunk, the ⌈n·d/8⌉ keystream bytes `sample` reads, concatenated (every chunk but the last
  /// is whole, kChunk·d/8 bytes). packed_z_bytes is their count for `count` parameters.
  static std::size_t packed_z_bytes(std::size_t count, unsigned bits);
  static void packed_z(const Key& shared, std::uint32_t stream, unsigned bits, std::uint8_t* out,
                       std::size_t count, std::uint64_t first = 0);

  /// `sample` with Z read from `z` (packed_z's layout, e.g. as received and decrypted by the
  /// follower) instead of from the shared key: the same outputs when z is packed_z's.
  void sample_with_z(const std::uint8_t* z, const float* w1, const float* w2, float* out1,
                     float* out2, std::size_t count, std::uint64_t first = 0) const;

 private:
  void run(const std::uint8_t* z, const float* w1, const float* w2, float* out1, float* out2,
           std::size_t count, std::uint64_t first) const;
  FixedPointLaw law_;
  unsigned bits_;
  Key shared_, private_leader_, private_follower_;
  std::uint32_t stream_;
};

class LdpqSampler {
 public:
  static constexpr std::size_t kChunk = 32768;
  LdpqSampler(const FixedPointLaw& law, const Key& private_key, std::uint32_t stream);
  void sample(const float* w, float* out, std::size_t count, std::uint64_t first = 0) const;

 private:
  FixedPointLaw law_;
  Key private_key_;
  std::uint32_t stream_;
};

}  // namespace corbin
