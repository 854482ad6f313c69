#include "corbin/quantizer/sampler.hpp"

#include <algorithm>
#include <cstring>
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
  low_ = to_double(Rational(center - radius));
  high_ = to_double(Rational(center + radius));
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
    throw invalid_argument("--bits", std::to_string(bits),
                           "at most " + std::to_string(kMaxBits) + " in the sampler");
}

namespace {

/// One chunk of CorBinQ without the ties, written as straight-line passes over small arrays so
/// that the compiler vectorises them (AVX2 where the CPU has it, chosen at load time). Returns
/// true if some input was NaN. Ties are resolved afterwards by the caller.
__attribute__((target_clones("avx2", "default"))) bool corbinq_chunk(
    const float* __restrict w1, const float* __restrict w2, float* __restrict out1,
    float* __restrict out2, std::uint32_t* __restrict a1, std::uint32_t* __restrict a2,
    std::uint32_t* __restrict z, const std::uint8_t* __restrict z_bytes, std::size_t n,
    unsigned bits, const SamplerConstants& constants) {
  const SamplerConstants k = constants;  // a local copy: stores through out1 cannot alias it
  const std::uint64_t z_mask = (std::uint64_t{1} << bits) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t bit = i * bits;
    std::uint64_t word;
    std::memcpy(&word, z_bytes + bit / 8, sizeof word);  // little-endian load
    z[i] = static_cast<std::uint32_t>((word >> (bit % 8)) & z_mask);
  }
  int nan = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = w1[i], x2 = w2[i];
    nan |= (x1 != x1) | (x2 != x2);
    // Clip to [c − r, c + r], then n = round(2^K q) by the 2^52 trick (exact for t < 2^52)
    // and clamp n to [n_lo, n_hi]; the follower uses 2^K − n.
    const std::int64_t r1 = fixed_point(x1, k), r2 = fixed_point(x2, k);
    const auto t1 = static_cast<std::uint32_t>(r1 >> k.f);
    const auto t2 = static_cast<std::uint32_t>((k.one - r2) >> k.f);
    a1[i] = t1;
    a2[i] = t2;
    out1[i] = z[i] < t1 ? k.plus : k.minus;
    out2[i] = z[i] < t2 ? k.minus : k.plus;
  }
  return nan != 0;
}

}  // namespace

void CorbinqPairSampler::sample(const float* w1, const float* w2, float* out1, float* out2,
                                std::size_t count, std::uint64_t first) const {
  check_first(first, kChunk);
  const unsigned f = kFixedBits - bits_;
  const std::uint64_t tie_mask = (std::uint64_t{1} << f) - 1;
  const std::uint64_t one_k = std::uint64_t{1} << kFixedBits;
  const SamplerConstants k = law_.constants(f);
  std::vector<std::uint8_t> z_bytes(kChunk * bits_ / 8 + 16, 0);
  std::vector<std::uint32_t> a1(kChunk), a2(kChunk), z(kChunk);
  bool nan_seen = false;
  for (std::size_t start = 0; start < count; start += kChunk) {
    const std::size_t n = std::min(kChunk, count - start);
    const std::uint64_t chunk = (first + start) / kChunk;
    keystream(shared_, stream_, chunk, z_bytes.data(), (n * bits_ + 7) / 8);
    nan_seen |= corbinq_chunk(w1 + start, w2 + start, out1 + start, out2 + start, a1.data(),
                              a2.data(), z.data(), z_bytes.data(), n, bits_, k);
    // Ties (Z = T): about 2/2^d of the parameters, resolved in order with private coins.
    WordStream coins1(private_leader_, stream_, chunk), coins2(private_follower_, stream_, chunk);
    for (std::size_t i = 0; i < n; ++i) {
      if (z[i] == a1[i]) [[unlikely]] {
        const std::uint64_t n1 = law_.fixed_q(w1[start + i], nan_seen);
        out1[start + i] = (coins1.next() & tie_mask) < (n1 & tie_mask) ? k.plus : k.minus;
      }
      if (z[i] == a2[i]) [[unlikely]] {
        const std::uint64_t v = one_k - law_.fixed_q(w2[start + i], nan_seen);
        out2[start + i] = (coins2.next() & tie_mask) < (v & tie_mask) ? k.minus : k.plus;
      }
    }
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
  const float plus = law_.plus_value(), minus = law_.minus_value();
  std::vector<std::uint32_t> coins(kChunk);
  bool nan_seen = false;
  for (std::size_t start = 0; start < count; start += kChunk) {
    const std::size_t n = std::min(kChunk, count - start);
    keystream(private_key_, stream_, (first + start) / kChunk,
              reinterpret_cast<std::uint8_t*>(coins.data()), n * sizeof(std::uint32_t));
    for (std::size_t i = 0; i < n; ++i)
      out[start + i] = coins[i] < law_.fixed_q(w[start + i], nan_seen) ? plus : minus;
  }
  if (nan_seen) check_no_nan("w", w, count, first);
}

}  // namespace corbin
