#pragma once
// PBM as the authors' repository runs it ("PBM_PLDP", methods/PBM_PLDP.py; REFERENCES.md,
// "Baselines of the authors' repository"): the Poisson binomial mechanism of Chen, Özgür and
// Kairouz (ICML 2022) applied to one coordinate of one client, with its binomial parameter
// calibrated to ε-PLDP instead of Rényi DP. For w in [c − r, c + r]:
//     p = 1/2 + (θ/r)(w − c)            in [1/2 − θ, 1/2 + θ]
//     Z ~ Binomial(m, p)                m = 1 or 2 in the authors' runs (m trials, m bits claimed)
//     ŵ = c + (r/θ)(Z/m − 1/2)          the value the server averages; E[ŵ] = w
//     θ = tanh(ε/(2m))/2 = (s − 1)/(2(s + 1)),  s = e^(ε/m)
// With that θ the extreme outputs Z = 0 and Z = m have likelihood ratio ((1/2 + θ)/(1/2 − θ))^m
// = s^m = e^ε between w = c ± r, and every other output less (its probability is unimodal in p
// with mode k/m): PBM is exactly ε-PLDP. At m = 1 it is LDPQ itself (r/(2θ) = rα,
// baseline_identity.hpp).
//
// The formulas are templates on the number type. θ is the calibrated parameter: exact when e^(ε/m)
// is rational (pbm_theta_exact), an enclosure from ε otherwise (pbm_theta_interval).

#include <cstdint>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"
#include "corbin/quantizer/keystream.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/quantizer/scalar_law.hpp"

namespace corbin {

/// Largest number of trials the exact paths accept (binomial coefficients stay small; the authors
/// run m = 1 and 2, the choices of main.py's pbm_m flag).
constexpr unsigned kPbmMaxTrials = 64;

/// Raises invalid_argument("m") unless 1 <= m <= kPbmMaxTrials.
void check_pbm_trials(unsigned m);

/// Raises invalid_argument("theta") unless 0 < θ < 1/2 (p must stay inside (0, 1), or an output
/// becomes impossible at one end of the range and the ratio unbounded). Certified for Interval
/// (undecidable if the enclosure straddles an end).
template <class T>
void check_pbm_theta(const T& theta) {
  using N = NumTraits<T>;
  const T half = N::from(Rational(1, 2));
  if (!N::less(T(0), theta, "theta > 0") || !N::less(theta, half, "theta < 1/2"))
    throw invalid_argument("theta", describe(N::approx(theta)), "in (0, 1/2)");
}

/// θ = (s − 1)/(2(s + 1)) = tanh(ε/(2m))/2 from s = e^(ε/m) (PBM_PLDP.py, line 33). Rational in s.
template <class T>
T pbm_theta_from_root(const T& root) {
  return T((root - 1) / (2 * (root + 1)));
}

/// θ exactly from e^ε when its m-th root is rational (e^ε = 9, m = 2: s = 3, θ = 1/4). Raises
/// invalid_argument("exp_eps") if e^ε <= 1 or its m-th root is irrational (use pbm_theta_interval).
Rational pbm_theta_exact(const Rational& exp_eps, unsigned m);

/// An enclosure of θ = tanh(ε/(2m))/2 at the working precision; raises invalid_argument("eps")
/// unless 0 < ε <= 10^8.
Interval pbm_theta_interval(const Rational& eps, unsigned m);

/// The decoded value of Z = k: c + r(2k − m)/(2mθ) (PBM_PLDP.py, line 70).
template <class T>
T pbm_level(const T& theta, unsigned m, const Rational& center, const Rational& radius, unsigned k) {
  using N = NumTraits<T>;
  const Rational step = radius * (2 * static_cast<long>(k) - static_cast<long>(m)) / (2 * static_cast<long>(m));
  return T(N::from(center) + N::from(step) / theta);
}

/// p = 1/2 + (θ/r)(w − c) (PBM_PLDP.py, line 63); w is checked against [c − r, c + r].
template <class T>
T pbm_p(const T& theta, const Rational& center, const Rational& radius, const Rational& w) {
  using N = NumTraits<T>;
  check_radius(radius);
  check_weight("w", w, center, radius);
  return T(N::from(Rational(1, 2)) + theta * N::from(Rational((w - center) / radius)));
}

namespace detail {

/// The law for binomial parameter p: output k has value pbm_level(k) and probability
/// C(m, k) p^k (1 − p)^(m − k).
template <class T>
ScalarLaw<T> pbm_law_at_p(const T& theta, unsigned m, const Rational& center, const Rational& radius,
                          const T& p) {
  using N = NumTraits<T>;
  ScalarLaw<T> law;
  BigInt binom = 1;  // C(m, k), updated as k grows
  for (unsigned k = 0; k <= m; ++k) {
    T prob = N::from(binom);
    for (unsigned i = 0; i < k; ++i) prob = T(prob * p);
    for (unsigned i = k; i < m; ++i) prob = T(prob * (1 - p));
    law.atoms.push_back({pbm_level(theta, m, center, radius, k), prob});
    binom = binom * (m - k) / (k + 1);
  }
  return law;
}

/// The input whose binomial parameter is p: w = c + r(p − 1/2)/θ.
template <class T>
T pbm_input_at(const T& theta, const Rational& center, const Rational& radius, const T& p) {
  using N = NumTraits<T>;
  return T(N::from(center) + N::from(radius) * (p - N::from(Rational(1, 2))) / theta);
}

}  // namespace detail

/// The exact output law at w: m + 1 outputs in increasing order of value (Z = 0, …, m).
template <class T>
ScalarLaw<T> pbm_law(const T& theta, unsigned m, const Rational& center, const Rational& radius,
                     const Rational& w) {
  check_pbm_trials(m);
  check_pbm_theta(theta);
  return detail::pbm_law_at_p(theta, m, center, radius, pbm_p(theta, center, radius, w));
}

/// E[(ŵ − w)²] = Var(ŵ) = (r/θ)² p(1 − p)/m in closed form (ŵ is unbiased, and Var(Z/m) =
/// p(1 − p)/m); the tests hold it against the law's own moments.
template <class T>
T pbm_mse(const T& theta, unsigned m, const Rational& center, const Rational& radius,
          const Rational& w) {
  using N = NumTraits<T>;
  check_pbm_trials(m);
  check_pbm_theta(theta);
  const T p = pbm_p(theta, center, radius, w);
  const T scale = T(N::from(radius) / theta);
  return T(scale * scale * p * (1 - p) / N::from(BigInt(m)));
}

/// The PLDP supremum over [c − r, c + r] and whether it meets e^ε = exp_eps (the ε θ was
/// calibrated to). Output k's probability is unimodal in p with its mode at k/m, and p is affine
/// and increasing in w, so its extremes over the range sit at p = 1/2 ± θ and, for the maximum,
/// at p = k/m when that lies strictly inside: those inputs are the candidates.
template <class T>
LawPldp<T> pbm_pldp(const T& theta, unsigned m, const Rational& center, const Rational& radius,
                    const T& exp_eps) {
  using N = NumTraits<T>;
  check_radius(radius);
  check_pbm_trials(m);
  check_pbm_theta(theta);
  const T half = N::from(Rational(1, 2));
  const T p_lo = T(half - theta), p_hi = T(half + theta);
  std::vector<T> ps{p_lo, p_hi};
  for (unsigned k = 1; k < m; ++k) {
    const T mode = N::from(Rational(k, m));
    if (N::less(p_lo, mode, "1/2 - theta < k/m") && N::less(mode, p_hi, "k/m < 1/2 + theta"))
      ps.push_back(mode);
  }
  std::vector<T> inputs;
  std::vector<ScalarLaw<T>> laws;
  for (const T& p : ps) {
    inputs.push_back(detail::pbm_input_at(theta, center, radius, p));
    laws.push_back(detail::pbm_law_at_p(theta, m, center, radius, p));
  }
  LawPldp<T> result = pldp_over_inputs(inputs, laws);
  set_claim(result, exp_eps);
  return result;
}

/// m bits claimed (PBM_PLDP.py, lines 11–12; Readme.md's table: 1 / 2); m + 1 outputs need
/// ⌈log2(m + 1)⌉ (the same for m = 1, 2); 32 moved by the simulation (the decoded float).
WireBits pbm_wire_bits(unsigned m);

/// The PBM sampler. For input w, n = round(2^32 p(w)) clamped to [ceil(2^32 (1/2 − θ)),
/// floor(2^32 (1/2 + θ))] (scalar_law.hpp, fixed_range; inputs outside [c − r, c + r] get the
/// clipped input's n, as the authors' torch.clamp does), and trial j succeeds iff coin j of the
/// coordinate's word is below n: coin 0 is bits 0–31, coin 1 bits 32–63, so m <= 2. The law it
/// realises is Binomial(m, n/2^32), exactly fixed_point_law(w); its ratio never exceeds the exact
/// law's because n stays inside the exact range.
class PbmSampler {
 public:
  static constexpr unsigned kMaxSamplerTrials = 2;

  /// theta as calibrated (Rational or Interval: the clamp bounds are then certified inward).
  /// Raises invalid_argument("m") unless m is 1 or 2, "theta", "radius" as the law does.
  template <class T>
  PbmSampler(const T& theta, unsigned m, const Rational& center, const Rational& radius,
             const Key& key, std::uint32_t stream);

  /// n for input w (a NaN raises invalid_argument("w")).
  std::uint32_t fixed_p(double w) const;
  /// Z given the coordinate's word.
  unsigned decide(double w, std::uint64_t word) const;
  /// The decoded value of decide(w, word).
  double sample(double w, std::uint64_t word) const { return levels_[decide(w, word)]; }
  /// count coordinates; coordinate first + i takes word i mod kBaselineChunk of chunk
  /// (first + i) / kBaselineChunk of (key, stream). first must be a multiple of kBaselineChunk, so
  /// that any slice reproduces the full run. NaN inputs raise invalid_argument("w[i]").
  void sample(const float* w, float* out, std::size_t count, std::uint64_t first = 0) const;
  /// The exact law realised for input w: Binomial(m, n/2^32) over the sampler's decoded values
  /// (the doubles it returns, as exact rationals).
  ScalarLaw<Rational> fixed_point_law(double w) const;

  std::uint32_t n_lo() const { return static_cast<std::uint32_t>(constants_.n_lo); }
  std::uint32_t n_hi() const { return static_cast<std::uint32_t>(constants_.n_hi); }
  const std::vector<double>& levels() const { return levels_; }

 private:
  unsigned m_;
  SamplerConstants constants_;
  std::vector<double> levels_;
  Key key_;
  std::uint32_t stream_;
};

}  // namespace corbin
