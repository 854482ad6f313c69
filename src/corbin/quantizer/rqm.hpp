#pragma once
// RQM as the authors' repository runs it ("RQM", methods/RQM_FL.py with RQM.py; REFERENCES.md,
// "Baselines of the authors' repository"): the randomized quantization mechanism of Youn, Hu,
// Ziani and Abernethy (2023, Algorithm 2) on one coordinate, with m = 2 or 3 levels. For w in
// [c − r, c + r], x = w − c:
//     X = r(1 + D)                       the levels' half-width (D = Δ/r, the code's delta_ratio)
//     levels c − X, c + X (m = 2);  c − X, c, c + X (m = 3)
//     m = 3: the middle level is kept with probability q, independently per coordinate
//     randomized rounding of x between the two kept levels around it (unbiased: E[ŵ] = w)
// so that, with P0, P1, P2 the probabilities of c − X, c, c + X,
//     m = 2:  P0 = (X − x)/(2X),  P2 = (X + x)/(2X)
//     m = 3, x >= 0:  P0 = (1 − q)(X − x)/(2X),  P1 = q(X − x)/X,  P2 = (1 − q)(X + x)/(2X) + q x/X
//     m = 3, x < 0:   P0 = (1 − q)(X − x)/(2X) + q(−x)/X,  P1 = q(X + x)/X,  P2 = (1 − q)(X + x)/(2X)
// Calibration (RQM_FL.py, line 49: brentq on RQM.py's rqm_local_pure_dp_eps, which compares the
// laws at x = ±r only): the largest ratio at x = ±r is P0(−r)/P0(r) = 1 + 2/((1 − q)D), so
//     D = 2/((1 − q)(e^ε − 1))     (m = 2: q plays no part, D = 2/(e^ε − 1), the code's comment)
// in closed form; the code's root finder returns it to xtol = 1e-9. Comparing only x = ±r is
// enough here: every P_i is affine in x on each side of 0, so its extremes sit at x in {−r, 0, r},
// and the only ratio involving x = 0 is P1's, X/(X − r) = 1 + 1/D, below 1 + 2/((1 − q)D). So RQM
// as calibrated is exactly ε-PLDP. At m = 2, X = r(e^ε + 1)/(e^ε − 1) = rα: it is LDPQ
// (baseline_identity.hpp).

#include <cstdint>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/quantizer/scalar_law.hpp"

namespace corbin {

/// Raises invalid_argument("m") unless m is 2 or 3 (RQM_FL.py, line 39).
void check_rqm_levels(unsigned m);

/// Raises invalid_argument("q") unless 0 <= q < 1: at q = 1 the middle level is always kept, P0 is
/// 0 at x = r and positive at x = −r, and no D gives a bounded ratio.
void check_rqm_q(const Rational& q);

/// Raises invalid_argument("delta_ratio") unless D > 0 (RQM.py, rqm_levels: Δ > 0 is required
/// for any privacy: at D = 0 the extreme levels are c ± r and P0(r) = 0).
template <class T>
void check_rqm_delta_ratio(const T& delta_ratio) {
  using N = NumTraits<T>;
  if (!N::less(T(0), delta_ratio, "delta_ratio > 0"))
    throw invalid_argument("delta_ratio", describe(N::approx(delta_ratio)), "> 0");
}

/// D = 2/((1 − q)(e^ε − 1)) for m = 3, 2/(e^ε − 1) for m = 2: the root of the code's calibration
/// in closed form (see the header comment). Raises invalid_argument("exp_eps") unless e^ε > 1.
template <class T>
T rqm_delta_ratio(const T& exp_eps, unsigned m, const Rational& q) {
  using N = NumTraits<T>;
  check_rqm_levels(m);
  check_rqm_q(q);
  if (!N::less(T(1), exp_eps, "exp_eps > 1"))
    throw invalid_argument("exp_eps", describe(N::approx(exp_eps)), "> 1 (ε > 0)");
  const Rational keep_out = m == 3 ? Rational(1 - q) : Rational(1);
  return T(2 / (N::from(keep_out) * (exp_eps - 1)));
}

/// D from ε as an enclosure at the working precision; raises invalid_argument("eps") unless
/// 0 < ε <= 10^8.
Interval rqm_delta_ratio_interval(const Rational& eps, unsigned m, const Rational& q);

/// X = r(1 + D) (RQM_FL.py, line 85: Xmax = r_val * (1 + delta_ratio)).
template <class T>
T rqm_xmax(const T& delta_ratio, const Rational& radius) {
  return T(NumTraits<T>::from(radius) * (1 + delta_ratio));
}

namespace detail {

/// The law at x = w − c (exact offset), X given.
template <class T>
ScalarLaw<T> rqm_law_at(unsigned m, const Rational& q, const T& xmax, const Rational& center,
                        const Rational& x) {
  using N = NumTraits<T>;
  const T c = N::from(center), xv = N::from(x), two_x = T(2 * xmax);
  const T low = T(c - xmax), high = T(c + xmax);
  if (m == 2) return ScalarLaw<T>{{{low, T((xmax - xv) / two_x)}, {high, T((xmax + xv) / two_x)}}};
  const T qv = N::from(q), drop = N::from(Rational(1 - q));
  T p0 = T(drop * (xmax - xv) / two_x), p2 = T(drop * (xmax + xv) / two_x), p1;
  if (x >= 0) {  // kept branch rounds between c and c + X (RQM_FL.py, lines 105–113: x >= 0)
    p1 = T(qv * (xmax - xv) / xmax);
    p2 = T(p2 + qv * xv / xmax);
  } else {  // between c − X and c
    p1 = T(qv * (xmax + xv) / xmax);
    p0 = T(p0 - qv * xv / xmax);
  }
  return ScalarLaw<T>{{{low, p0}, {c, p1}, {high, p2}}};
}

}  // namespace detail

/// The exact output law at w: m outputs in increasing order of value.
template <class T>
ScalarLaw<T> rqm_law(unsigned m, const Rational& q, const T& delta_ratio, const Rational& center,
                     const Rational& radius, const Rational& w) {
  check_rqm_levels(m);
  check_rqm_q(q);
  check_rqm_delta_ratio(delta_ratio);
  check_radius(radius);
  check_weight("w", w, center, radius);
  return detail::rqm_law_at(m, q, rqm_xmax(delta_ratio, radius), center, Rational(w - center));
}

/// E[(ŵ − w)²] in closed form: X² − x² for m = 2 and X² − qX(X − |x|) − x² for m = 3 (ŵ is
/// unbiased, and E[(ŵ − c)²] = X²(1 − P1)).
template <class T>
T rqm_mse(unsigned m, const Rational& q, const T& delta_ratio, const Rational& center,
          const Rational& radius, const Rational& w) {
  using N = NumTraits<T>;
  check_rqm_levels(m);
  check_rqm_q(q);
  check_rqm_delta_ratio(delta_ratio);
  check_radius(radius);
  check_weight("w", w, center, radius);
  const Rational x = w - center, abs_x = x < 0 ? Rational(-x) : x;
  const T xmax = rqm_xmax(delta_ratio, radius);
  T mse = T(xmax * xmax - N::from(Rational(x * x)));
  if (m == 3) mse = T(mse - N::from(q) * xmax * (xmax - N::from(abs_x)));
  return mse;
}

/// The PLDP supremum over [c − r, c + r] and whether it meets e^ε = exp_eps. Every probability is
/// affine in w on each side of c, so the candidates c − r, c, c + r hold every extreme.
template <class T>
LawPldp<T> rqm_pldp(unsigned m, const Rational& q, const T& delta_ratio, const Rational& center,
                    const Rational& radius, const T& exp_eps) {
  using N = NumTraits<T>;
  check_radius(radius);
  std::vector<T> inputs;
  std::vector<ScalarLaw<T>> laws;
  for (const Rational& w : {Rational(center - radius), center, Rational(center + radius)}) {
    inputs.push_back(N::from(w));
    laws.push_back(rqm_law(m, q, delta_ratio, center, radius, w));
  }
  LawPldp<T> result = pldp_over_inputs(inputs, laws);
  set_claim(result, exp_eps);
  return result;
}

/// ⌈log2 m⌉ bits claimed (RQM_FL.py, line 14; Readme.md: 1 / 2), the same lossless, 32 moved by
/// the simulation (the decoded float).
WireBits rqm_wire_bits(unsigned m);

/// The RQM sampler. Coin 0 (bits 0–31 of the coordinate's word) decides, for m = 3, whether the
/// middle level is kept: kept iff coin 0 < n_q = floor(2^32 q), rounded down because the ratio
/// 1 + 2/((1 − q)D) grows with q, so the realised law never exceeds the calibrated e^ε. The
/// rounding coin is coin 1 (bits 32–63) for m = 3 and coin 0 for m = 2; it is compared with a
/// fixed-point threshold clamped to the exact range of its branch (fixed_range): the upper level
/// with probability (x + X)/(2X) when the middle level is out, and, when it is kept, c + X with
/// probability x/X for x >= 0 and c − X with probability −x/X for x < 0. Inputs outside
/// [c − r, c + r] get the clipped input's thresholds, as the authors' torch.clamp does. The law it
/// realises is exactly fixed_point_law(w).
class RqmSampler {
 public:
  template <class T>
  RqmSampler(unsigned m, const Rational& q, const T& delta_ratio, const Rational& center,
             const Rational& radius, const Key& key, std::uint32_t stream);

  /// The output index (0: c − X, then increasing) given the coordinate's word; a NaN w raises
  /// invalid_argument("w").
  unsigned decide(double w, std::uint64_t word) const;
  double sample(double w, std::uint64_t word) const { return levels_[decide(w, word)]; }
  /// As PbmSampler::sample: coordinate first + i takes word i mod kBaselineChunk of chunk
  /// (first + i) / kBaselineChunk.
  void sample(const float* w, float* out, std::size_t count, std::uint64_t first = 0) const;
  /// The exact law realised for input w, over the sampler's decoded values.
  ScalarLaw<Rational> fixed_point_law(double w) const;

  std::uint64_t n_keep() const { return n_keep_; }
  const std::vector<double>& levels() const { return levels_; }

 private:
  struct Thresholds {
    std::uint32_t spread, inner;  ///< out branch: up; kept branch: toward the outer level
    bool below;                   ///< x < 0: the kept branch rounds between c − X and c
  };
  Thresholds thresholds(double w) const;
  unsigned m_;
  std::uint64_t n_keep_;
  double center_;
  SamplerConstants spread_, inner_up_, inner_down_;
  std::vector<double> levels_;
  Key key_;
  std::uint32_t stream_;
};

}  // namespace corbin
