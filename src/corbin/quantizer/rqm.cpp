#include "corbin/quantizer/rqm.hpp"

#include <memory>
#include <string>

namespace corbin {

void check_rqm_levels(unsigned m) {
  if (m != 2 && m != 3)
    throw invalid_argument("m", std::to_string(m), "2 or 3 (number of quantization levels)");
}

void check_rqm_q(const Rational& q) {
  if (q < 0 || q >= 1)
    throw invalid_argument("q", to_string(q), "in [0, 1) (probability of keeping the middle level)");
}

Interval rqm_delta_ratio_interval(const Rational& eps, unsigned m, const Rational& q) {
  return rqm_delta_ratio(exp_eps_interval(eps), m, q);
}

WireBits rqm_wire_bits(unsigned m) {
  check_rqm_levels(m);
  return {bits_for_symbols(m), bits_for_symbols(m), 32};
}

template <class T>
RqmSampler::RqmSampler(unsigned m, const Rational& q, const T& delta_ratio, const Rational& center,
                       const Rational& radius, const Key& key, std::uint32_t stream)
    : m_(m), n_keep_(0), center_(to_double(center)), key_(key), stream_(stream) {
  using N = NumTraits<T>;
  check_rqm_levels(m);
  check_rqm_q(q);
  check_rqm_delta_ratio(delta_ratio);
  check_radius(radius);
  constexpr double kTwo32 = 4294967296.0, kTwo31 = 2147483648.0;
  const T xmax = rqm_xmax(delta_ratio, radius), r = N::from(radius);
  const T two_x = T(2 * xmax);
  // Out branch: up with (x + X)/(2X), in [(X − r)/(2X), (X + r)/(2X)].
  const FixedRange spread = fixed_range(T((xmax - r) / two_x), T((xmax + r) / two_x));
  const double inv_x = N::approx(T(1 / xmax));
  spread_ = {center_, kTwo31 * inv_x, kTwo31, static_cast<double>(spread.lo),
             static_cast<double>(spread.hi), 0, 0, 0.0f, 0.0f};
  if (m == 3) {
    n_keep_ = floor_of(Rational(q * pow2(kFixedBits))).convert_to<std::uint64_t>();
    // Kept branch: toward the outer level with |x|/X, in [0, r/X].
    const FixedRange inner = fixed_range(T(0), T(r / xmax));
    inner_up_ = {center_, kTwo32 * inv_x, 0.0, static_cast<double>(inner.lo),
                 static_cast<double>(inner.hi), 0, 0, 0.0f, 0.0f};
    inner_down_ = inner_up_;
    inner_down_.scale = -kTwo32 * inv_x;
  }
  levels_.push_back(N::approx(T(N::from(center) - xmax)));
  if (m == 3) levels_.push_back(center_);
  levels_.push_back(N::approx(T(N::from(center) + xmax)));
}

template RqmSampler::RqmSampler(unsigned, const Rational&, const Rational&, const Rational&,
                                const Rational&, const Key&, std::uint32_t);
template RqmSampler::RqmSampler(unsigned, const Rational&, const Interval&, const Rational&,
                                const Rational&, const Key&, std::uint32_t);

RqmSampler::Thresholds RqmSampler::thresholds(double w) const {
  if (w != w) throw invalid_argument("w", "NaN", "a number (NaN inputs cannot be quantized)");
  Thresholds t{fixed_point(w, spread_), 0, w < center_};
  if (m_ == 3) t.inner = fixed_point(w, t.below ? inner_down_ : inner_up_);
  return t;
}

unsigned RqmSampler::decide(double w, std::uint64_t word) const {
  const Thresholds t = thresholds(w);
  if (m_ == 2) return low_coin(word) < t.spread ? 1u : 0u;
  const std::uint32_t coin = high_coin(word);
  if (low_coin(word) >= n_keep_) return coin < t.spread ? 2u : 0u;  // middle level dropped
  if (t.below) return coin < t.inner ? 0u : 1u;
  return coin < t.inner ? 2u : 1u;
}

void RqmSampler::sample(const float* w, float* out, std::size_t count, std::uint64_t first) const {
  sample_by_words(key_, stream_, w, out, count, first,
                  [this](double x, std::uint64_t word) { return sample(x, word); });
}

ScalarLaw<Rational> RqmSampler::fixed_point_law(double w) const {
  const Thresholds t = thresholds(w);
  const Rational unit(BigInt(1), pow2(kFixedBits));
  const Rational up = Rational(BigInt(t.spread)) * unit;
  ScalarLaw<Rational> law;
  if (m_ == 2) {
    law.atoms = {{to_rational(levels_[0]), Rational(1 - up)}, {to_rational(levels_[1]), up}};
    return law;
  }
  const Rational keep = Rational(BigInt(n_keep_)) * unit, drop = 1 - keep;
  const Rational inner = Rational(BigInt(t.inner)) * unit;
  Rational p0 = drop * (1 - up), p1 = 0, p2 = drop * up;
  if (t.below) {
    p0 += keep * inner;
    p1 = keep * (1 - inner);
  } else {
    p2 += keep * inner;
    p1 = keep * (1 - inner);
  }
  law.atoms = {{to_rational(levels_[0]), p0}, {to_rational(levels_[1]), p1}, {to_rational(levels_[2]), p2}};
  return law;
}

}  // namespace corbin
