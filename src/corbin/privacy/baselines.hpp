#pragma once
// The paper's baselines, calibrated: the Gaussian mechanism (analytic, Balle & Wang 2018,
// Algorithm 1's exact condition; and the classic σ of Dwork & Roth, valid for ε < 1 only) and
// the Laplace mechanism (Dwork et al. 2006), with the MSE each adds per coordinate.

#include "corbin/number/interval.hpp"

namespace corbin {

/// Raises invalid_argument for ε <= 0 (--eps), δ outside (0, 1) (--delta), Δ <= 0
/// (--sensitivity).
void check_calibration(const Rational& eps, const Rational& delta, const Rational& sensitivity);

/// The AGM privacy curve of N(0, σ²) at sensitivity Δ:
///     δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ),
/// evaluated in MPFR at the working precision (Φ through erfc). Decreasing in σ.
Real agm_delta(const Real& sigma, const Rational& eps, const Rational& sensitivity);

/// The smallest σ with agm_delta(σ) <= δ: a bracket by doubling, then bisection to
/// `relative_tolerance` of σ at 256 bits. Returns the upper end of the final bracket, so the
/// condition holds at the returned σ.
Real agm_sigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
               double relative_tolerance = 1e-30);

/// σ = √(2 ln(1.25/δ)) Δ/ε; `valid` is false for ε >= 1, where it does not give (ε, δ)-DP.
struct ClassicSigma {
  Real sigma;
  bool valid;
};
ClassicSigma classic_gaussian_sigma(const Rational& eps, const Rational& delta,
                                    const Rational& sensitivity);

/// Laplace scale b = Δ/ε (pure ε-DP); its variance, the per-coordinate MSE, is 2b².
Rational laplace_scale(const Rational& eps, const Rational& sensitivity);

}  // namespace corbin
