#include "corbin/quantizer/pbm.hpp"

#include <gmp.h>

#include <memory>
#include <string>

namespace corbin {
namespace {

/// The exact m-th root of a non-negative integer, if it is one.
bool exact_root(const BigInt& x, unsigned m, BigInt& root) {
  return mpz_root(root.backend().data(), x.backend().data(), m) != 0;
}

}  // namespace

void check_pbm_trials(unsigned m) {
  if (m < 1 || m > kPbmMaxTrials)
    throw invalid_argument("m", std::to_string(m),
                           "in {1, …, " + std::to_string(kPbmMaxTrials) + "} (number of binomial trials)");
}

Rational pbm_theta_exact(const Rational& exp_eps, unsigned m) {
  check_pbm_trials(m);
  if (exp_eps <= 1) throw invalid_argument("exp_eps", to_string(exp_eps), "> 1 (ε > 0)");
  BigInt num, den;
  if (!exact_root(numerator(exp_eps), m, num) || !exact_root(denominator(exp_eps), m, den))
    throw invalid_argument("exp_eps", to_string(exp_eps),
                           "an exact " + std::to_string(m) +
                               "-th power of a rational for exact PBM with m = " + std::to_string(m) +
                               " (θ is rational in e^(ε/m)); give ε for certified intervals");
  return pbm_theta_from_root(Rational(num, den));
}

Interval pbm_theta_interval(const Rational& eps, unsigned m) {
  check_pbm_trials(m);
  exp_eps_interval(eps);  // validates ε
  const Interval root = exp(interval_from(Rational(eps / m)));
  return pbm_theta_from_root(root);
}

WireBits pbm_wire_bits(unsigned m) {
  check_pbm_trials(m);
  return {m, bits_for_symbols(m + 1), 32};
}

template <class T>
PbmSampler::PbmSampler(const T& theta, unsigned m, const Rational& center, const Rational& radius,
                       const Key& key, std::uint32_t stream)
    : m_(m), key_(key), stream_(stream) {
  using N = NumTraits<T>;
  check_radius(radius);
  check_pbm_trials(m);
  if (m > kMaxSamplerTrials)
    throw invalid_argument("m", std::to_string(m), "1 or 2 in the sampler (two 32-bit coins per word)");
  check_pbm_theta(theta);
  const T half = N::from(Rational(1, 2));
  const FixedRange range = fixed_range(T(half - theta), T(half + theta));
  constexpr double kTwo32 = 4294967296.0, kTwo31 = 2147483648.0;
  constants_ = {to_double(center),
                N::approx(T(theta / N::from(radius))) * kTwo32,
                kTwo31,
                static_cast<double>(range.lo),
                static_cast<double>(range.hi),
                0,
                0,
                0.0f,
                0.0f};
  for (unsigned k = 0; k <= m; ++k) levels_.push_back(N::approx(pbm_level(theta, m, center, radius, k)));
}

template PbmSampler::PbmSampler(const Rational&, unsigned, const Rational&, const Rational&, const Key&,
                                std::uint32_t);
template PbmSampler::PbmSampler(const Interval&, unsigned, const Rational&, const Rational&, const Key&,
                                std::uint32_t);

std::uint32_t PbmSampler::fixed_p(double w) const {
  if (w != w) throw invalid_argument("w", "NaN", "a number (NaN inputs cannot be quantized)");
  return fixed_point(w, constants_);
}

unsigned PbmSampler::decide(double w, std::uint64_t word) const {
  const std::uint32_t n = fixed_p(w);
  unsigned z = low_coin(word) < n ? 1u : 0u;
  if (m_ == 2) z += high_coin(word) < n ? 1u : 0u;
  return z;
}

void PbmSampler::sample(const float* w, float* out, std::size_t count, std::uint64_t first) const {
  sample_by_words(key_, stream_, w, out, count, first,
                  [this](double x, std::uint64_t word) { return sample(x, word); });
}

ScalarLaw<Rational> PbmSampler::fixed_point_law(double w) const {
  const Rational p(BigInt(fixed_p(w)), pow2(kFixedBits));
  ScalarLaw<Rational> law;
  BigInt binom = 1;
  for (unsigned k = 0; k <= m_; ++k) {
    Rational prob(binom);
    for (unsigned i = 0; i < k; ++i) prob *= p;
    for (unsigned i = k; i < m_; ++i) prob *= Rational(1 - p);
    law.atoms.push_back({to_rational(levels_[k]), prob});
    binom = binom * (m_ - k) / (k + 1);
  }
  return law;
}

}  // namespace corbin
