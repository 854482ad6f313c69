#pragma once
// The steps of the round kernels (round_kernels.hpp), written once for the host backend
// (round_kernels.cpp) and the CUDA backend (round_kernels.cu). Each step is one unit of
// parallel work: a ChaCha20 block's worth of LDPQ coins or noise words, one CorBinQ parameter
// pair, one coordinate of the aggregate. Only the order in which CorBinQ's ties take their coins
// needs a count across a chunk; each backend counts it its own way and passes the rank in.

#include "corbin/fl/round_kernels.hpp"

namespace corbin::fl::kernels {

/// LDPQ on the 16 parameters that block `group` of the coin stream serves (parameter i uses
/// 32-bit word i mod kChunk of chunk i / kChunk). Returns true if a weight was NaN.
CORBIN_HD bool ldpq_group(const LdpqJob& job, std::uint64_t group) {
  const std::uint64_t first = group * 16;
  std::uint32_t coins[16];
  chacha20::block_words(job.key, job.stream, first / kChunk, static_cast<std::uint32_t>(first % kChunk / 16), coins);
  bool nan = false;
  for (std::uint64_t j = 0; j < 16 && first + j < job.size; ++j) {
    const float x = job.w[first + j];
    nan |= x != x;
    job.out[first + j] = coins[j] < fixed_point(x, job.k) ? job.k.plus : job.k.minus;
  }
  return nan;
}

/// The noise baselines on the 4 coordinates that block `group` of the noise stream serves
/// (coordinate t uses the 64-bit words 2t and 2t + 1 of chunk 0).
CORBIN_HD void noise_group(const NoiseJob& job, std::uint64_t group) {
  std::uint32_t words[16];
  chacha20::block_words(job.key, job.stream, 0, static_cast<std::uint32_t>(group), words);
  for (std::uint64_t j = 0; j < 4 && 4 * group + j < job.size; ++j) {
    const std::uint64_t t = 4 * group + j;
    const double u1 = unit_uniform(words[4 * j] | static_cast<std::uint64_t>(words[4 * j + 1]) << 32);
    const double u2 = unit_uniform(words[4 * j + 2] | static_cast<std::uint64_t>(words[4 * j + 3]) << 32);
    const double draw = job.gaussian ? gaussian_draw(u1, u2) : laplace_draw(u1);
    const double clipped = clip(job.g, job.w[t]);
#if defined(__CUDA_ARCH__)
    job.out[t] = static_cast<float>(__dadd_rn(clipped, __dmul_rn(job.scale, draw)));
#else
    job.out[t] = static_cast<float>(clipped + job.scale * draw);
#endif
  }
}

/// Bytes of chunk `chunk`'s Z, in 64-byte blocks: block b of the shared stream, or the same bytes
/// of the received Z (CorbinqPairSampler::packed_z's layout: chunk c starts at byte c·kChunk·d/8).
/// `length` is the chunk's byte count ⌈n·d/8⌉; bytes past it are left alone.
CORBIN_HD void z_block(const CorbinqJob& job, std::uint64_t chunk, std::uint32_t block, std::uint32_t length,
                       std::uint8_t* bytes) {
  const std::uint32_t first = 64 * block;
  if (job.z != nullptr) {
    const std::uint8_t* source = job.z + chunk * (kChunk / 8) * job.bits;
    for (std::uint32_t b = first; b < first + 64 && b < length; ++b) bytes[b] = source[b];
    return;
  }
  std::uint32_t words[16];
  chacha20::block_words(job.shared, job.stream, chunk, block, words);
  for (std::uint32_t b = first; b < first + 64 && b < length; ++b)
    bytes[b] = static_cast<std::uint8_t>(words[(b - first) / 4] >> (8 * (b % 4)));
}

/// Z of parameter i of a chunk: bits i·d to i·d + d − 1 of its bytes, little-endian (unpack_z).
CORBIN_HD std::uint32_t z_at(const std::uint8_t* bytes, std::uint32_t length, std::uint32_t i, std::uint32_t bits) {
  if (bits == 0) return 0;
  const std::uint64_t bit = static_cast<std::uint64_t>(i) * bits;
  const std::uint64_t first = bit / 8;
  std::uint64_t word = 0;
  for (std::uint32_t b = 0; b < 5 && first + b < length; ++b) word |= static_cast<std::uint64_t>(bytes[first + b]) << (8 * b);
  return static_cast<std::uint32_t>((word >> (bit % 8)) & ((std::uint64_t{1} << bits) - 1));
}

/// One CorBinQ parameter pair before its ties are resolved (corbinq_chunk).
struct PairStep {
  std::uint32_t n1, n2;
  bool tie1, tie2, nan;
  float out1, out2;
};
CORBIN_HD PairStep corbinq_step(const CorbinqJob& job, float x1, float x2, std::uint32_t z) {
  PairStep s;
  s.nan = (x1 != x1) || (x2 != x2);
  s.n1 = fixed_point(x1, job.k);
  s.n2 = fixed_point(x2, job.k);
  const std::uint32_t t1 = leader_threshold(s.n1, job.k), t2 = follower_threshold(s.n2, job.k);
  s.tie1 = z == t1;
  s.tie2 = z == t2;
  s.out1 = z < t1 ? job.k.plus : job.k.minus;
  s.out2 = z < t2 ? job.k.minus : job.k.plus;
  return s;
}

/// A tie resolved with word `rank` of the client's coin stream for the chunk (resolve_ties): the
/// rank-th tie of that client in the chunk, counting from 0 in parameter order.
CORBIN_HD float leader_tie(const CorbinqJob& job, std::uint32_t n1, std::uint64_t chunk, std::uint64_t rank) {
  const std::uint64_t mask = (std::uint64_t{1} << (kFixedBits - job.bits)) - 1;
  return tie_wins(chacha20::word(job.leader, job.stream, chunk, rank), n1, mask) ? job.k.plus : job.k.minus;
}
CORBIN_HD float follower_tie(const CorbinqJob& job, std::uint32_t n2, std::uint64_t chunk, std::uint64_t rank) {
  const std::uint64_t mask = (std::uint64_t{1} << (kFixedBits - job.bits)) - 1;
  return tie_wins(chacha20::word(job.follower, job.stream, chunk, rank), 0u - n2, mask) ? job.k.minus : job.k.plus;
}

/// Coordinate t of a layer of the aggregate (obfuscated_mean's sums, in its order).
CORBIN_HD void sum_coordinate(const SumInput& in, const SumJob& job, std::uint64_t t) {
  const std::uint64_t at = job.offset + t;
  double sent = 0, clipped = 0;
  for (std::uint32_t s = 0; s < in.count; ++s) {
    const std::uint64_t row = static_cast<std::uint64_t>(in.order[s]) * in.stride;
    sent += in.values[row + at];
    const float w = in.weights[row + at];
    clipped += job.clip ? clip(job.g, w) : w;
  }
  const double k = in.count;
  in.aggregate[at] = static_cast<float>(sent / k);
  in.clipped_mean[at] = static_cast<float>(clipped / k);
  in.error[at] = sent / k - clipped / k;
}

}  // namespace corbin::fl::kernels
