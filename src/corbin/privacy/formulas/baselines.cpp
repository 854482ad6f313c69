#include "corbin/privacy/formulas/baselines.hpp"

#include <mpfr.h>

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

Real real(const Rational& x) { return Real(x); }

/// erfc(y) rounded toward `rounding`.
Real erfc_rounded(const Real& y, mpfr_rnd_t rounding) {
  Real out;
  mpfr_erfc(out.backend().data(), y.backend().data(), rounding);
  return out;
}

}  // namespace

// Φ(x) = erfc(y)/2 with y = −x/√2, and erfc decreasing, so the lower end is erfc(upper end of y)
// rounded down, the upper end erfc(lower end of y) rounded up (halving is exact).
Interval normal_cdf(const Interval& x) {
  const Interval y = Interval(-x / sqrt(interval_from(Rational(2))));
  return Interval(interval_hull(erfc_rounded(upper_of(y), MPFR_RNDD), erfc_rounded(lower_of(y), MPFR_RNDU)) / 2);
}

void check_calibration(const Rational& eps, const Rational& delta, const Rational& sensitivity) {
  if (eps <= 0) throw invalid_argument("eps", to_string(eps), "positive");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  if (sensitivity <= 0)
    throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
}

Interval agm_delta_enclosure(const Real& sigma, const Rational& eps, const Rational& sensitivity) {
  // At large ε, e^ε overflows and Φ(−a − b) underflows MPFR's default exponent range, and their
  // product was NaN (σ = 1, δ = NaN at ε = 1e9): widen the range, and refuse what still does not fit.
  const WideExponentScope range;
  const Interval d = interval_from(sensitivity), e = interval_from(eps), s = interval_hull(sigma, sigma);
  const Interval a = Interval(d / (2 * s)), b = Interval(e * s / d);
  const Interval delta = Interval(normal_cdf(Interval(a - b)) - exp(e) * normal_cdf(Interval(-a - b)));
  if (!isfinite(lower_of(delta)) || !isfinite(upper_of(delta)))
    throw invalid_argument("eps", to_string(eps),
                           "small enough for the analytic Gaussian's δ(σ) to be evaluated (e^ε within MPFR's "
                           "exponent range, ε below about 3e18)");
  return delta;
}

Real agm_delta(const Real& sigma, const Rational& eps, const Rational& sensitivity) {
  return upper_of(agm_delta_enclosure(sigma, eps, sensitivity));
}

Real agm_sigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
               double relative_tolerance) {
  check_calibration(eps, delta, sensitivity);
  PrecisionScope scope(256);
  const WideExponentScope range;
  const Real target = real(delta);
  // δ(σ) falls from 1 (σ → 0) to 0 (σ → ∞); the root finder works on the midpoint, which is
  // within the enclosure's width (about 2^-250 relative) of δ(σ).
  const auto f = [&](const Real& sigma) {
    return Real(midpoint_of(agm_delta_enclosure(sigma, eps, sensitivity)) - target);
  };
  const auto bits = static_cast<int>(std::ceil(-std::log2(relative_tolerance)));
  const boost::math::tools::eps_tolerance<Real> tolerance(std::min(bits, 240));
  std::uintmax_t iterations = 400;
  Real hi;
  if (f(real(Rational(BigInt(1), pow(BigInt(10), 300)))) <= 0) {
    hi = real(Rational(BigInt(1), pow(BigInt(10), 300)));  // δ(σ) <= target for every σ > 0 down to 1e-300
  } else {
    const auto [lo, up] = boost::math::tools::bracket_and_solve_root(f, real(sensitivity), Real(2), false,
                                                                     tolerance, iterations);
    (void)lo;
    hi = up;
  }
  // Certify: the upper end of δ(hi)'s enclosure at most δ; each step up is one tolerance.
  const Real step = Real(1 + Real(std::ldexp(1.0, -std::min(bits, 240))));
  for (int i = 0; agm_delta(hi, eps, sensitivity) > target; ++i) {
    if (i == 1000)
      throw undecidable("the analytic Gaussian's σ: δ(σ) not certified below δ near the root at 256 bits");
    hi *= step;
  }
  return hi;
}

double agm_sigma_double(const Rational& eps, const Rational& delta, const Rational& sensitivity) {
  const Real sigma = agm_sigma(eps, delta, sensitivity);
  return mpfr_get_d(sigma.backend().data(), MPFR_RNDU);
}

ClassicSigma classic_gaussian_sigma(const Rational& eps, const Rational& delta,
                                    const Rational& sensitivity) {
  check_calibration(eps, delta, sensitivity);
  PrecisionScope scope(256);
  const Real sigma = Real(sqrt(2 * log(real(Rational(Rational(5, 4) / delta)))) *
                          real(sensitivity) / real(eps));
  return {sigma, eps < 1};
}

Rational laplace_scale(const Rational& eps, const Rational& sensitivity) {
  if (eps <= 0) throw invalid_argument("eps", to_string(eps), "positive");
  if (sensitivity <= 0)
    throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
  return Rational(sensitivity / eps);
}

}  // namespace corbin
