#include "corbin/quantizer/sampler.hpp"

#include <cmath>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {
namespace {

std::uint64_t to_u64(const BigInt& x) { return x.convert_to<std::uint64_t>(); }

void check_first(std::uint64_t first, std::size_t chunk) {
  if (first % chunk != 0)
    throw invalid_argument("first", std::to_string(first),
                           "a multiple of the chunk size " + std::to_string(chunk));
}

/// Raises invalid_argument naming the first NaN of w (as name[index]), if there is one.
void check_no_nan(const char* name, const float* w, std::size_t count, std::uint64_t first) {
  for (std::size_t i = 0; i < count; ++i)
    if (w[i] != w[i])
      throw invalid_argument(std::string(name) + "[" + std::to_string(first + i) + "]", "NaN",
                             "a number (NaN weights cannot be quantized)");
}

}  // namespace

JointLaw<Rational> fixed_point_joint_law(std::uint64_t n1, std::uint64_t n2, unsigned bits, unsigned total_bits) {
  const unsigned f = total_bits - bits;
  const std::uint64_t mask = (std::uint64_t{1} << f) - 1, v = (std::uint64_t{1} << total_bits) - n2;
  const Rational scale(BigInt(1), pow2(f));
  const Cell<Rational> u{BigInt(n1 >> f), Rational(BigInt(n1 & mask)) * scale};
  const Cell<Rational> w{BigInt(v >> f), Rational(BigInt(v & mask)) * scale};
  return joint_law_from_cells(u, w, pow2(bits), Variant::corrected);
}

FixedPointLaw::FixedPointLaw(const Budget& budget, const Rational& center, const Rational& radius) {
  check_radius(radius);
  const BigInt one_k = pow2(kFixedBits);
  if (budget.exact()) {
    const Rational a = budget.alpha_exact();
    const Rational lo = ldpq_q(a, center, radius, Rational(center - radius)) * one_k;
    const Rational hi = ldpq_q(a, center, radius, Rational(center + radius)) * one_k;
    n_lo_ = to_u64(-floor_of(Rational(-lo)));  // ceil
    n_hi_ = to_u64(floor_of(hi));
    level_ = to_double(Rational(a * radius));
  } else {
    PrecisionScope scope(128);
    const Interval a = budget.alpha_interval();
    const Interval lo = ldpq_q(a, center, radius, Rational(center - radius)) * interval_from(one_k);
    const Interval hi = ldpq_q(a, center, radius, Rational(center + radius)) * interval_from(one_k);
    BigInt lo_ceil, hi_floor;
    mpfr_get_z(lo_ceil.backend().data(), upper_of(lo).backend().data(), MPFR_RNDU);
    mpfr_get_z(hi_floor.backend().data(), lower_of(hi).backend().data(), MPFR_RNDD);
    n_lo_ = to_u64(lo_ceil);
    n_hi_ = to_u64(hi_floor);
    level_ = midpoint_of(Interval(a * interval_from(radius))).convert_to<double>();
  }
  center_ = to_double(center);
  // The outputs c ± rα are floats (the model's weights): a budget so small that α overflows them
  // is refused by the budget's name rather than sampled as ±inf.
  if (!std::isfinite(plus_value()) || !std::isfinite(minus_value()))
    throw invalid_argument(budget.parameter(), budget.shown_value(),
                           "large enough that the outputs c ± rα fit in a float (here r = " + describe(to_double(radius)) +
                               " and rα = " + describe(level_) + ")");
  scale_ = kHalf / level_;  // 2^K/(2rα)
}

CorbinqPairSampler::CorbinqPairSampler(const FixedPointLaw& law, unsigned bits, const Key& shared,
                                       const Key& private_leader, const Key& private_follower,
                                       std::uint32_t stream)
    : law_(law),
      bits_(bits),
      shared_(shared),
      private_leader_(private_leader),
      private_follower_(private_follower),
      stream_(stream) {
  if (bits > kMaxBits)
    throw invalid_argument("bits", std::to_string(bits),
                           "at most " + std::to_string(kMaxBits) + " in the sampler");
}

namespace {

/// Z for n parameters from the packed keystream: parameter i owns bits [i·d, (i + 1)·d). For
/// d <= 8 a group of 8 parameters owns exactly d bytes, so one 8-byte load serves the group and
/// the 8 shifts are independent (the compiler unrolls and vectorises them); wider Z takes one
/// unaligned load per parameter.
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) void unpack_z(
    const std::uint8_t* __restrict bytes, std::uint32_t* __restrict z, std::size_t n,
    unsigned bits) {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  if (bits <= 8) {
    for (std::size_t g = 0; g < (n + 7) / 8; ++g) {
      std::uint64_t word;
      std::memcpy(&word, bytes + g * bits, sizeof word);  // little-endian load
      for (unsigned j = 0; j < 8; ++j)
        z[8 * g + j] = static_cast<std::uint32_t>((word >> (j * bits)) & mask);
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t bit = i * bits;
    std::uint64_t word;
    std::memcpy(&word, bytes + bit / 8, sizeof word);
    z[i] = static_cast<std::uint32_t>((word >> (bit % 8)) & mask);
  }
}

/// One chunk of CorBinQ without the ties, as one straight-line pass that the compiler
/// vectorises (AVX-512 or AVX2 where the CPU has it, chosen at load time). tie[i] gets bit 0 for
/// a leader tie and bit 1 for a follower tie; those are resolved afterwards with private coins.
/// Returns true if some input was NaN.
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) bool corbinq_chunk(
    const float* __restrict w1, const float* __restrict w2, float* __restrict out1,
    float* __restrict out2, const std::uint32_t* __restrict z, std::uint8_t* __restrict tie,
    std::size_t n, const SamplerConstants& constants) {
  const SamplerConstants k = constants;  // a local copy: stores through out1 cannot alias it
  int nan = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = w1[i], x2 = w2[i];
    nan |= (x1 != x1) | (x2 != x2);
    const std::uint32_t t1 = leader_threshold(fixed_point(x1, k), k);
    const std::uint32_t t2 = follower_threshold(fixed_point(x2, k), k);
    tie[i] = static_cast<std::uint8_t>((z[i] == t1) | (z[i] == t2) << 1);
    out1[i] = z[i] < t1 ? k.plus : k.minus;
    out2[i] = z[i] < t2 ? k.minus : k.plus;
  }
  return nan != 0;
}

/// For each byte value, the positions of its set bits in increasing order as eight 16-bit lanes
/// of two words (the lanes past the count are junk that the next write covers), and how many
/// there are (a table lookup: baseline x86-64 has no popcount instruction).
struct BytePositions {
  std::uint64_t lanes[256][2];
  std::uint8_t count[256];
};
constexpr BytePositions make_byte_positions() {
  BytePositions table{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    unsigned lane = 0;
    for (unsigned bit = 0; bit < 8; ++bit)
      if (byte >> bit & 1u) {
        table.lanes[byte][lane / 4] |= std::uint64_t{bit} << (16 * (lane % 4));
        ++lane;
      }
    table.count[byte] = static_cast<std::uint8_t>(lane);
  }
  return table;
}
constexpr BytePositions kBytePositions = make_byte_positions();

struct TieCounts {
  std::size_t leader = 0, follower = 0;
};

/// The indices i < n with a leader tie, and with a follower tie, in increasing order, written
/// without a branch per tie (ties are random, so such branches would mispredict): each 8 flag
/// bytes become two bit masks by one multiplication each (byte k's low bit lands on bit 56 + k,
/// with no carries), and each mask writes its 8 table positions and advances by its bit count.
/// The lists need room for n + 8 entries; flags past n must be 0 up to a multiple of 8.
TieCounts compact_ties(const std::uint8_t* tie, std::size_t n, std::uint16_t* leader,
                       std::uint16_t* follower) {
  constexpr std::uint64_t kLowBits = 0x0101010101010101ULL, kGather = 0x0102040810204080ULL;
  constexpr std::uint64_t kEachLane = 0x0001000100010001ULL;
  TieCounts counts;
  const auto append = [](std::uint16_t* list, std::size_t& count, unsigned mask,
                         std::uint64_t base) {
    const std::uint64_t words[2] = {kBytePositions.lanes[mask][0] + base,
                                    kBytePositions.lanes[mask][1] + base};
    std::memcpy(list + count, words, sizeof words);
    count += kBytePositions.count[mask];
  };
  for (std::size_t g = 0; g < n; g += 8) {
    std::uint64_t flags;
    std::memcpy(&flags, tie + g, sizeof flags);
    const std::uint64_t base = g * kEachLane;  // g < 2^16: no carry between lanes
    append(leader, counts.leader, static_cast<unsigned>((flags & kLowBits) * kGather >> 56), base);
    append(follower, counts.follower,
           static_cast<unsigned>((flags >> 1 & kLowBits) * kGather >> 56), base);
  }
  return counts;
}

/// Resolves one client's ties: tie j, at index list[j], takes `below` if coin j wins against the
/// threshold (leader: n = round(2^K q), follower: 2^K − n) and `above` otherwise.
void resolve_ties(
    const float* __restrict w, float* __restrict out, const std::uint16_t* __restrict list,
    const std::uint32_t* __restrict coins, std::size_t count, const SamplerConstants& constants,
    std::uint32_t tie_mask, bool follower, float below, float above) {
  const SamplerConstants k = constants;
  const float outcome[2] = {above, below};  // indexed, not branched on: the coin is random
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t i = list[j];
    const std::uint32_t n = fixed_point(w[i], k);
    const std::uint32_t threshold = follower ? 0u - n : n;
    out[i] = outcome[tie_wins(coins[j], threshold, tie_mask)];
  }
}

/// LDPQ on integers: Q = + iff a uniform 32-bit coin falls below n = round(2^K q(w)).
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) bool ldpq_chunk(
    const float* __restrict w, float* __restrict out, const std::uint32_t* __restrict coins,
    std::size_t n, const SamplerConstants& constants) {
  const SamplerConstants k = constants;
  int nan = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = w[i];
    nan |= x != x;
    out[i] = coins[i] < fixed_point(x, k) ? k.plus : k.minus;
  }
  return nan != 0;
}

/// Per-chunk scratch, allocated once per thread: federated rounds call the sampler once per
/// layer, and fresh buffers there would cost page faults that dwarf the sampling. Padding:
/// unpack_z reads whole 8-byte words and whole groups of 8 (Z has at most 32 bits);
/// compact_ties reads 8 flags at a time and writes 8 list entries at a time.
struct CorbinqWorkspace {
  static constexpr std::size_t kChunk = CorbinqPairSampler::kChunk;
  std::uint8_t z_bytes[kChunk * 4 + 16];
  std::uint8_t tie[kChunk];
  std::uint32_t z[kChunk], coins1[kChunk], coins2[kChunk];
  std::uint16_t list1[kChunk + 8], list2[kChunk + 8];
};

CorbinqWorkspace& corbinq_workspace() {
  thread_local const std::unique_ptr<CorbinqWorkspace> workspace(new CorbinqWorkspace());
  return *workspace;
}

}  // namespace

std::size_t CorbinqPairSampler::packed_z_bytes(std::size_t count, unsigned bits) {
  static_assert(kChunk % 8 == 0, "whole chunks of Z are whole bytes");
  const std::size_t whole = count / kChunk, rest = count % kChunk;
  return whole * (kChunk / 8) * bits + (rest * bits + 7) / 8;
}

void CorbinqPairSampler::packed_z(const Key& shared, std::uint32_t stream, unsigned bits,
                                  std::uint8_t* out, std::size_t count, std::uint64_t first) {
  check_first(first, kChunk);
  for (std::size_t start = 0; start < count; start += kChunk) {
    const std::size_t n = std::min(kChunk, count - start);
    keystream(shared, stream, (first + start) / kChunk, out + packed_z_bytes(start, bits),
              (n * bits + 7) / 8);
  }
}

void CorbinqPairSampler::sample(const float* w1, const float* w2, float* out1, float* out2,
                                std::size_t count, std::uint64_t first) const {
  run(nullptr, w1, w2, out1, out2, count, first);
}

void CorbinqPairSampler::sample_with_z(const std::uint8_t* z, const float* w1, const float* w2,
                                       float* out1, float* out2, std::size_t count,
                                       std::uint64_t first) const {
  if (z == nullptr && bits_ > 0 && count > 0) throw invalid_argument("z", "null", "the packed Z bytes");
  run(z, w1, w2, out1, out2, count, first);
}

void CorbinqPairSampler::run(const std::uint8_t* z, const float* w1, const float* w2, float* out1,
                             float* out2, std::size_t count, std::uint64_t first) const {
  check_first(first, kChunk);
  static_assert(kChunk % 8 == 0 && kChunk <= 65536, "tie lists hold 16-bit indices");
  const unsigned f = kFixedBits - bits_;
  const auto tie_mask = static_cast<std::uint32_t>((std::uint64_t{1} << f) - 1);
  const SamplerConstants k = law_.constants(f);
  CorbinqWorkspace& ws = corbinq_workspace();
  bool nan_seen = false;
  for (std::size_t start = 0; start < count; start += kChunk) {
    const std::size_t n = std::min(kChunk, count - start);
    const std::uint64_t chunk = (first + start) / kChunk;
    // Copied even when given: unpack_z reads past the end (whole 8-byte words).
    if (z != nullptr)
      std::memcpy(ws.z_bytes, z + packed_z_bytes(start, bits_), (n * bits_ + 7) / 8);
    else
      keystream(shared_, stream_, chunk, ws.z_bytes, (n * bits_ + 7) / 8);
    unpack_z(ws.z_bytes, ws.z, n, bits_);
    nan_seen |=
        corbinq_chunk(w1 + start, w2 + start, out1 + start, out2 + start, ws.z, ws.tie, n, k);
    std::fill(ws.tie + n, ws.tie + kChunk, std::uint8_t{0});
    // Ties (Z = T): about 1/2^d of the parameters per client. The j-th tie of a client in this
    // chunk uses word j of that client's private stream for the chunk; all of a chunk's coins
    // come from one keystream call per client.
    const TieCounts ties = compact_ties(ws.tie, n, ws.list1, ws.list2);
    keystream(private_leader_, stream_, chunk, reinterpret_cast<std::uint8_t*>(ws.coins1),
              ties.leader * sizeof(std::uint32_t));
    keystream(private_follower_, stream_, chunk, reinterpret_cast<std::uint8_t*>(ws.coins2),
              ties.follower * sizeof(std::uint32_t));
    resolve_ties(w1 + start, out1 + start, ws.list1, ws.coins1, ties.leader, k, tie_mask, false,
                 k.plus, k.minus);
    resolve_ties(w2 + start, out2 + start, ws.list2, ws.coins2, ties.follower, k, tie_mask, true,
                 k.minus, k.plus);
  }
  if (nan_seen) {  // the bulk pass only flags; name the first culprit
    check_no_nan("w1", w1, count, first);
    check_no_nan("w2", w2, count, first);
  }
}

LdpqSampler::LdpqSampler(const FixedPointLaw& law, const Key& private_key, std::uint32_t stream)
    : law_(law), private_key_(private_key), stream_(stream) {}

void LdpqSampler::sample(const float* w, float* out, std::size_t count, std::uint64_t first) const {
  check_first(first, kChunk);
  const SamplerConstants k = law_.constants(0);
  thread_local const std::unique_ptr<std::uint32_t[]> coins(new std::uint32_t[kChunk]);
  bool nan_seen = false;
  for (std::size_t start = 0; start < count; start += kChunk) {
    const std::size_t n = std::min(kChunk, count - start);
    keystream(private_key_, stream_, (first + start) / kChunk,
              reinterpret_cast<std::uint8_t*>(coins.get()), n * sizeof(std::uint32_t));
    nan_seen |= ldpq_chunk(w + start, out + start, coins.get(), n, k);
  }
  if (nan_seen) check_no_nan("w", w, count, first);
}

}  // namespace corbin
