#pragma once
// The paper's baselines, calibrated: the Gaussian mechanism (analytic, Balle & Wang 2018,
// Algorithm 1's exact condition; and the classic σ of Dwork & Roth, valid for ε < 1 only) and
// the Laplace mechanism (Dwork et al. 2006), with the MSE each adds per coordinate.

#include "corbin/number/interval.hpp"

namespace corbin {

/// Φ(x), the standard normal distribution function, enclosed for x in an enclosure (erfc rounded
/// outward, Φ monotone).
Interval normal_cdf(const Interval& x);

/// Raises invalid_argument for ε <= 0 (eps), δ outside (0, 1) (delta), Δ <= 0
/// (sensitivity).
void check_calibration(const Rational& eps, const Rational& delta, const Rational& sensitivity);

/// The AGM privacy curve of N(0, σ²) at sensitivity Δ:
///     δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ),
/// enclosed: the arithmetic in MPFI, and Φ = erfc(−x/√2)/2, monotone, taken at the ends of its
/// argument's enclosure with erfc rounded outward (MPFI has no erfc). Decreasing in σ.
Interval agm_delta_enclosure(const Real& sigma, const Rational& eps, const Rational& sensitivity);
/// The upper end of the enclosure: never below δ(σ).
Real agm_delta(const Real& sigma, const Rational& eps, const Rational& sensitivity);
/// The smallest σ with δ(σ) <= δ, to `relative_tolerance`, at 256 bits: Boost.Math's
/// bracket_and_solve_root (TOMS 748 inside) on δ(σ) − δ at the enclosures' midpoints, then the
/// bracket's upper end moved up, if it must be, until agm_delta (the certified upper end) is at
/// most δ. So the returned σ provably meets δ, and is within the tolerance of the smallest that does.
Real agm_sigma(const Rational& eps, const Rational& delta, const Rational& sensitivity,
               double relative_tolerance = 1e-30);
/// agm_sigma as a double rounded up (calibration in a double path must not lose noise).
double agm_sigma_double(const Rational& eps, const Rational& delta, const Rational& sensitivity);
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
