#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "corbin/fl/round_kernels.hpp"
#include "corbin/quantizer/chacha20.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/sampler.hpp"

using namespace corbin;

namespace {

const Budget kBudget = Budget::make(Budget::Kind::exp_eps, 3);  // α = 2


/// ChaCha20 words of (key, stream, chunk) from libsodium.
std::vector<std::uint32_t> reference_words(const Key& key, std::uint32_t stream,
                                           std::uint64_t chunk, std::size_t count) {
  std::vector<std::uint32_t> words(count);
  reference_keystream(key, stream, chunk, reinterpret_cast<std::uint8_t*>(words.data()),
                      count * sizeof(std::uint32_t));
  return words;
}

/// The sampler's documented law, one parameter at a time with no vector code: Z of parameter i
/// is bits [i·d, (i + 1)·d) of the chunk's shared keystream (least significant first), the j-th
/// tie of a client in a chunk takes word j of its private keystream, and corbinq_decide decides.
struct Outputs {
  std::vector<float> out1, out2;
};
Outputs reference_sampler(const FixedPointLaw& law, unsigned d, const Key& shared,
                          const Key& leader, const Key& follower, std::uint32_t stream,
                          const std::vector<float>& w1, const std::vector<float>& w2) {
  const std::size_t chunk_size = CorbinqPairSampler::kChunk;
  Outputs o{std::vector<float>(w1.size()), std::vector<float>(w1.size())};
  bool nan = false;
  for (std::size_t start = 0; start < w1.size(); start += chunk_size) {
    const std::size_t n = std::min(chunk_size, w1.size() - start);
    const std::uint64_t chunk = start / chunk_size;
    std::vector<std::uint8_t> bytes((n * d + 7) / 8);
    reference_keystream(shared, stream, chunk, bytes.data(), bytes.size());
    const auto coins1 = reference_words(leader, stream, chunk, n);
    const auto coins2 = reference_words(follower, stream, chunk, n);
    std::size_t used1 = 0, used2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t z = 0;
      for (unsigned b = 0; b < d; ++b) {
        const std::size_t bit = i * d + b;
        z |= static_cast<std::uint64_t>(bytes[bit / 8] >> (bit % 8) & 1u) << b;
      }
      const std::uint64_t n1 = law.fixed_q(w1[start + i], nan), n2 = law.fixed_q(w2[start + i], nan);
      const unsigned f = kFixedBits - d;
      const std::uint64_t a1 = n1 >> f, a2 = ((std::uint64_t{1} << kFixedBits) - n2) >> f;
      const std::uint64_t u1 = z == a1 ? coins1[used1++] : 0, u2 = z == a2 ? coins2[used2++] : 0;
      const PairSigns s = corbinq_decide(n1, n2, d, kFixedBits, z, u1, u2);
      o.out1[start + i] = s.plus1 ? law.plus_value() : law.minus_value();
      o.out2[start + i] = s.plus2 ? law.plus_value() : law.minus_value();
    }
  }
  return o;
}

/// Inputs that reach every branch: inside, on and beyond c ± r, ±inf, and a sweep fine enough
/// that many parameters sit on threshold cells.
std::vector<float> awkward_inputs(std::size_t n, float c, float r, unsigned salt) {
  std::vector<float> w(n);
  const float special[] = {c - r, c + r, c, c - 2 * r, c + 3 * r,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(), std::nextafter(c + r, 0.0f)};
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = i * 7919 + salt;
    w[i] = k % 13 == 0 ? special[k % 8]
                       : c - 1.2f * r + 2.4f * r * static_cast<float>(k % 4099) / 4098.0f;
  }
  return w;
}

}  // namespace

TEST_CASE("keystream is libsodium's ChaCha20-IETF byte for byte", "[sampler][unit]") {
  const Key key = derive_key(5, "keystream");
  for (const std::uint32_t stream : {0u, 7u})
    for (const std::uint64_t chunk : {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << 40) + 3})
      for (const std::size_t bytes : {0, 1, 63, 64, 65, 1000, 4096 * 5 + 3}) {
        std::vector<std::uint8_t> fast(bytes + 1, 0xAB), slow(bytes + 1, 0xAB);
        keystream(key, stream, chunk, fast.data(), bytes);
        reference_keystream(key, stream, chunk, slow.data(), bytes);
        INFO("stream=" << stream << " chunk=" << chunk << " bytes=" << bytes);
        CHECK(fast == slow);  // the guard byte past the end is untouched in both
      }
}

TEST_CASE("the vectorised samplers equal the one-parameter reference bit for bit",
          "[sampler][unit]") {
  const Key shared = derive_key(21, "shared"), leader = derive_key(21, "leader"),
            follower = derive_key(21, "follower");
  const std::size_t n = 2 * CorbinqPairSampler::kChunk + 123;
  const auto w1 = awkward_inputs(n, 0.25f, 0.5f, 1), w2 = awkward_inputs(n, 0.25f, 0.5f, 2);
  for (const Budget& budget : {kBudget, Budget::make(Budget::Kind::eps, Rational(7, 10))}) {
    const FixedPointLaw law(budget, Rational(1, 4), Rational(1, 2));
    for (const unsigned d : {0u, 1u, 3u, 5u, 8u, 9u, 13u, 20u, 31u, 32u}) {
      INFO("budget=" << budget.describe() << " d=" << d);
      const CorbinqPairSampler sampler(law, d, shared, leader, follower, 3);
      std::vector<float> out1(n), out2(n);
      sampler.sample(w1.data(), w2.data(), out1.data(), out2.data(), n);
      const Outputs expected = reference_sampler(law, d, shared, leader, follower, 3, w1, w2);
      CHECK(out1 == expected.out1);
      CHECK(out2 == expected.out2);
    }
    std::vector<float> out(n);
    LdpqSampler(law, leader, 4).sample(w1.data(), out.data(), n);
    bool nan = false;
    std::size_t mismatches = 0;
    for (std::size_t start = 0; start < n; start += LdpqSampler::kChunk) {
      const std::size_t m = std::min(LdpqSampler::kChunk, n - start);
      const auto coins = reference_words(leader, 4, start / LdpqSampler::kChunk, m);
      for (std::size_t i = 0; i < m; ++i) {
        const float expected =
            coins[i] < law.fixed_q(w1[start + i], nan) ? law.plus_value() : law.minus_value();
        mismatches += out[start + i] != expected;
      }
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("the portable ChaCha20 block is the keystream's, and RFC 8439's test vector", "[sampler][unit]") {
  // RFC 8439, 2.3.2: key 00 01 .. 1f, nonce 00 00 00 09 00 00 00 4a 00 00 00 00, block 1. In the
  // keystream's addressing the nonce is (stream, chunk) = (0x09000000, 0x4a000000).
  Key rfc_key;
  for (std::size_t i = 0; i < rfc_key.size(); ++i) rfc_key[i] = static_cast<std::uint8_t>(i);
  std::uint32_t block[16];
  chacha20::block_words(key_words(rfc_key), 0x09000000u, 0x4a000000u, 1, block);
  CHECK(block[0] == 0xe4e7f110u);
  CHECK(block[1] == 0x15593bd1u);
  CHECK(block[15] == 0x4e3c50a2u);
  for (const std::uint32_t stream : {0u, 7u, 0xffffffffu})
    for (const std::uint64_t chunk : {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << 40) + 3}) {
      const Key key = derive_key(stream + chunk, "portable chacha");
      std::vector<std::uint32_t> expected(16 * 70);
      keystream(key, stream, chunk, reinterpret_cast<std::uint8_t*>(expected.data()), expected.size() * 4);
      std::size_t mismatches = 0;
      for (std::uint32_t b = 0; b < 70; ++b) {
        chacha20::block_words(key_words(key), stream, chunk, b, block);
        for (int j = 0; j < 16; ++j) mismatches += block[j] != expected[16 * b + j];
      }
      CHECK(mismatches == 0);
      CHECK(chacha20::word(key_words(key), stream, chunk, 1000) == expected[1000]);
    }
}

TEST_CASE("the round kernels, run on the host, equal the vectorised samplers bit for bit", "[sampler][unit]") {
  namespace k = corbin::fl::kernels;
  const Key shared = derive_key(22, "shared"), leader = derive_key(22, "leader"), follower = derive_key(22, "follower");
  const std::size_t n = 2 * CorbinqPairSampler::kChunk + 123;
  const auto w1 = awkward_inputs(n, 0.25f, 0.5f, 3), w2 = awkward_inputs(n, 0.25f, 0.5f, 4);
  for (const Budget& budget : {kBudget, Budget::make(Budget::Kind::eps, Rational(7, 10))}) {
    const FixedPointLaw law(budget, Rational(1, 4), Rational(1, 2));
    for (const unsigned d : {0u, 1u, 3u, 5u, 8u, 9u, 13u, 20u, 31u, 32u}) {
      INFO("budget=" << budget.describe() << " d=" << d);
      const CorbinqPairSampler sampler(law, d, shared, leader, follower, 3);
      std::vector<float> out1(n), out2(n), got1(n, 7.0f), got2(n, 7.0f);
      sampler.sample(w1.data(), w2.data(), out1.data(), out2.data(), n);
      k::CorbinqJob job{w1.data(), w2.data(), got1.data(), got2.data(), n, key_words(shared), key_words(leader),
                        key_words(follower), nullptr, 3, d, law.constants(kFixedBits - d)};
      CHECK_FALSE(k::run_corbinq(k::Backend::host, {job}));
      CHECK(got1 == out1);
      CHECK(got2 == out2);
      // Z as received: the same outputs from the packed bytes.
      std::vector<std::uint8_t> z(CorbinqPairSampler::packed_z_bytes(n, d) + 1);
      CorbinqPairSampler::packed_z(shared, 3, d, z.data(), n);
      job.z = z.data();
      std::fill(got1.begin(), got1.end(), 7.0f);
      k::run_corbinq(k::Backend::host, {job});
      CHECK(got1 == out1);
    }
    std::vector<float> out(n), got(n, 7.0f);
    LdpqSampler(law, leader, 4).sample(w1.data(), out.data(), n);
    CHECK_FALSE(k::run_ldpq(k::Backend::host, {{w1.data(), got.data(), n, key_words(leader), 4, law.constants(0)}}));
    CHECK(got == out);
  }
  // NaN is flagged, not silently quantized.
  std::vector<float> w(40, 0.5f), out(40);
  w[17] = std::numeric_limits<float>::quiet_NaN();
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  CHECK(k::run_ldpq(k::Backend::host, {{w.data(), out.data(), w.size(), key_words(leader), 0, law.constants(0)}}));
  CHECK(k::run_corbinq(k::Backend::host, {{w.data(), w.data(), out.data(), out.data(), w.size(), key_words(shared),
                                           key_words(leader), key_words(follower), nullptr, 0, 5,
                                           law.constants(kFixedBits - 5)}}));
  if (!k::cuda_built()) CHECK_THROWS_AS(k::run_ldpq(k::Backend::cuda, {}), invalid_argument);
}

TEST_CASE("the noise kernel draws coordinate t from words 2t and 2t + 1 of the client's stream", "[sampler][unit]") {
  namespace k = corbin::fl::kernels;
  const Key key = derive_key(23, "noise");
  const std::size_t n = 1001;
  const fl::Geometry g{0.1, 0.5};
  const auto w = awkward_inputs(n, 0.1f, 0.5f, 5);
  std::vector<std::uint64_t> words(2 * n);
  keystream(key, 6, 0, reinterpret_cast<std::uint8_t*>(words.data()), words.size() * 8);
  for (const std::uint32_t gaussian : {0u, 1u}) {
    std::vector<float> got(n);
    k::run_noise(k::Backend::host, {{w.data(), got.data(), n, key_words(key), 6, g, 0.25, gaussian}});
    std::size_t mismatches = 0;
    for (std::size_t t = 0; t < n; ++t) {
      const double u1 = fl::unit_uniform(words[2 * t]), u2 = fl::unit_uniform(words[2 * t + 1]);
      const double draw = gaussian ? fl::gaussian_draw(u1, u2) : fl::laplace_draw(u1);
      mismatches += got[t] != static_cast<float>(static_cast<double>(fl::clip(g, w[t])) + 0.25 * draw);
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("the integer kernel realises the closed-form law exactly", "[sampler][unit]") {
  // Exhaustive over every shared Z (2^d) and every private word pair (2^F each).
  for (unsigned d = 0; d <= 4; ++d) {
    const unsigned f = 3, k = d + f;
    const std::uint64_t one = std::uint64_t{1} << k;
    for (std::uint64_t n1 = 1; n1 < one; n1 += (one > 16 ? 3 : 1))
      for (std::uint64_t n2 = 1; n2 < one; n2 += (one > 16 ? 5 : 1)) {
        std::uint64_t counts[2][2] = {};
        for (std::uint64_t z = 0; z < (std::uint64_t{1} << d); ++z)
          for (std::uint64_t u1 = 0; u1 < (1u << f); ++u1)
            for (std::uint64_t u2 = 0; u2 < (1u << f); ++u2) {
              const PairSigns s = corbinq_decide(n1, n2, d, k, z, u1, u2);
              ++counts[s.plus1][s.plus2];
            }
        const Rational total(BigInt(std::uint64_t{1} << (d + 2 * f)));
        const auto law = fixed_point_joint_law(n1, n2, d, k);
        INFO("d=" << d << " n1=" << n1 << " n2=" << n2);
        REQUIRE(Rational(counts[1][1]) / total == law.pp);
        REQUIRE(Rational(counts[1][0]) / total == law.pm);
        REQUIRE(Rational(counts[0][1]) / total == law.mp);
        REQUIRE(Rational(counts[0][0]) / total == law.mm);
      }
  }
}

TEST_CASE("fixed-point probabilities stay inside the LDPQ range", "[sampler][unit]") {
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  // q ranges over [1/4, 3/4]: n over [2^30, 3·2^30] exactly.
  CHECK(law.n_lo() == (std::uint64_t{1} << 30));
  CHECK(law.n_hi() == 3 * (std::uint64_t{1} << 30));
  bool nan = false;
  CHECK(law.fixed_q(0.0f, nan) == (std::uint64_t{1} << 31));
  CHECK(law.fixed_q(5.0f, nan) == law.n_hi());  // clipped
  CHECK(law.fixed_q(-5.0f, nan) == law.n_lo());
  CHECK_FALSE(nan);
  law.fixed_q(std::numeric_limits<float>::quiet_NaN(), nan);
  CHECK(nan);
  // With --eps the bounds are certified inward: n_hi/n_lo never exceeds e^ε.
  const FixedPointLaw eps(Budget::make(Budget::Kind::eps, Rational(1, 10)), Rational(0), Rational(1));
  const double ratio = static_cast<double>(eps.n_hi()) / static_cast<double>(eps.n_lo());
  CHECK(ratio <= std::exp(0.1));
  CHECK(ratio > std::exp(0.1) * (1 - 1e-8));
}

TEST_CASE("the CorBinQ sampler matches its exact law (chi-square, fixed seed)", "[sampler][unit]") {
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  const unsigned d = 3;
  const std::size_t n = 1 << 20;
  const float w1_value = 0.3f, w2_value = -0.1f;
  std::vector<float> w1(n, w1_value), w2(n, w2_value), o1(n), o2(n);
  CorbinqPairSampler sampler(law, d, derive_key(7, "shared"), derive_key(7, "leader"),
                             derive_key(7, "follower"), 0);
  sampler.sample(w1.data(), w2.data(), o1.data(), o2.data(), n);
  double counts[2][2] = {};
  for (std::size_t i = 0; i < n; ++i) counts[o1[i] > 0][o2[i] > 0] += 1;
  bool nan = false;
  const auto exact = fixed_point_joint_law(law.fixed_q(w1_value, nan), law.fixed_q(w2_value, nan), d, 32);
  const double p[2][2] = {{to_double(exact.mm), to_double(exact.mp)},
                          {to_double(exact.pm), to_double(exact.pp)}};
  double chi2 = 0;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const double e = p[a][b] * static_cast<double>(n);
      if (e > 0) chi2 += (counts[a][b] - e) * (counts[a][b] - e) / e;
      else CHECK(counts[a][b] == 0);
    }
  // 3 degrees of freedom: P(chi2 > 16.27) = 0.001.
  CHECK(chi2 < 16.27);
  for (std::size_t i = 0; i < 64; ++i) CHECK((o1[i] == 2.0f || o1[i] == -2.0f));  // c ± rα
}

TEST_CASE("samplers are reproducible and slice-consistent", "[sampler][unit]") {
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  const std::size_t n = 3 * CorbinqPairSampler::kChunk + 17;
  std::vector<float> w1(n), w2(n);
  for (std::size_t i = 0; i < n; ++i) {
    w1[i] = static_cast<float>(i % 101) / 50.0f - 1.0f;
    w2[i] = static_cast<float>(i % 37) / 18.0f - 1.0f;
  }
  CorbinqPairSampler s(law, 5, derive_key(1, "z"), derive_key(1, "a"), derive_key(1, "b"), 9);
  std::vector<float> a1(n), a2(n), b1(n), b2(n);
  s.sample(w1.data(), w2.data(), a1.data(), a2.data(), n);
  s.sample(w1.data(), w2.data(), b1.data(), b2.data(), n);
  CHECK(a1 == b1);
  CHECK(a2 == b2);
  const std::size_t off = CorbinqPairSampler::kChunk;
  std::vector<float> c1(n - off), c2(n - off);
  s.sample(w1.data() + off, w2.data() + off, c1.data(), c2.data(), n - off, off);
  CHECK(std::equal(c1.begin(), c1.end(), a1.begin() + off));
  CHECK_THROWS_AS(s.sample(w1.data(), w2.data(), c1.data(), c2.data(), 10, 5), invalid_argument);
  // A different shared key changes the outputs.
  CorbinqPairSampler other(law, 5, derive_key(2, "z"), derive_key(1, "a"), derive_key(1, "b"), 9);
  other.sample(w1.data(), w2.data(), b1.data(), b2.data(), n);
  CHECK(a1 != b1);
  CHECK_THROWS_AS(CorbinqPairSampler(law, 33, {}, {}, {}, 0), invalid_argument);
}

TEST_CASE("NaN weights are refused by index", "[sampler][unit]") {
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  std::vector<float> w(100, 0.5f), out(100), w2(100, 0.0f), out2(100);
  w[42] = std::numeric_limits<float>::quiet_NaN();
  LdpqSampler ldpq(law, derive_key(3, "p"), 0);
  try {
    ldpq.sample(w.data(), out.data(), w.size());
    FAIL("NaN accepted");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == "w[42]");
  }
  CorbinqPairSampler pair(law, 5, derive_key(3, "z"), derive_key(3, "a"), derive_key(3, "b"), 0);
  try {
    pair.sample(w2.data(), w.data(), out.data(), out2.data(), w.size());
    FAIL("NaN accepted");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == "w2[42]");
  }
}

TEST_CASE("the LDPQ sampler is unbiased (z-test, fixed seed)", "[sampler][unit]") {
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  const std::size_t n = 1 << 20;
  std::vector<float> w(n, 0.6f), out(n);
  LdpqSampler(law, derive_key(11, "ldpq"), 0).sample(w.data(), out.data(), n);
  double mean = 0;
  for (float x : out) mean += x;
  mean /= static_cast<double>(n);
  // Var(Q) = L^2 − w^2 = 4 − 0.36; |z| < 4 fails with probability 6e-5.
  const double z = (mean - 0.6) / std::sqrt((4 - 0.36) / static_cast<double>(n));
  CHECK(std::abs(z) < 4);
}
