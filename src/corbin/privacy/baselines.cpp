#include "corbin/privacy/baselines.hpp"

#include <mpfr.h>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

Real real(const Rational& x) { return Real(x); }

/// Φ(x) = erfc(−x/√2)/2.
Real normal_cdf(const Real& x) {
  Real arg = Real(-x / sqrt(Real(2)));
  Real out;
  mpfr_erfc(out.backend().data(), arg.backend().data(), MPFR_RNDN);
  return Real(out / 2);
}

}  // namespace

void check_calibration(const Rational& eps, const Rational& delta, const Rational& sensitivity) {
  if (eps <= 0) throw invalid_argument("eps", to_string(eps), "positive");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  if (sensitivity <= 0)
    throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
}

Real agm_delta(const Real& sigma, const Rational& eps, const Rational& sensitivity) {
  // At large ε, e^ε overflows and Φ(−a − b) underflows MPFR's default exponent range, and their
  // product was NaN (σ = 1, δ = NaN at ε = 1e9): widen the range, and refuse what still does not fit.
  const WideExponentScope range;
  const Real d = real(sensitivity), e = real(eps);
  const Real a = Real(d / (2 * sigma)), b = Real(e * sigma / d);
  const Real delta = Real(normal_cdf(Real(a - b)) - exp(e) * normal_cdf(Real(-a - b)));
  if (!isfinite(delta))
    throw invalid_argument("eps", to_string(eps),
                           "small enough for the analytic Gaussian's δ(σ) to be evaluated (e^ε within MPFR's "
                           "exponent range, ε below about 3e18)");
  return delta;
}

Real agm_sigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
               double relative_tolerance) {
  check_calibration(eps, delta, sensitivity);
  PrecisionScope scope(256);
  const WideExponentScope range;
  const Real target = real(delta);
  // Bracket [lo, hi] with δ(lo) > target >= δ(hi); δ(σ) tends to 1 as σ -> 0 and to 0 as σ -> ∞.
  Real hi = real(sensitivity), lo;
  while (agm_delta(hi, eps, sensitivity) > target) hi *= 2;
  lo = Real(hi / 2);
  while (agm_delta(lo, eps, sensitivity) <= target) {
    hi = lo;
    lo /= 2;
    if (lo < Real(1e-300)) return hi;  // δ(σ) <= target for every σ > 0 down to 1e-300
  }
  const Real tolerance(relative_tolerance);
  while (Real(hi - lo) > Real(tolerance * hi)) {
    const Real mid = Real((lo + hi) / 2);
    if (agm_delta(mid, eps, sensitivity) > target)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
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
