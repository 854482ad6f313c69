#pragma once
// The Laplace baseline's round, accounted from the exact law of the released sum: n clients
// each add Laplace(b) noise to a clipped input in [c − r, c + r], and the sum moves by at most
// Δ = 2r when client 1's input is replaced. Whatever the other inputs, the pair is S + Δ against
// S, S the sum of n independent Laplace(b) (a shift: the others' inputs move both alike). In
// units of b, Y = S/b has the density and upper tail (the characteristic function (1 + t²)^(−n)
// inverted term by term)
//     g_n(y) = e^(−|y|) Σ_(j<n) c_j |y|^j,    c_j = (2n − 2 − j)! 2^j / (j! (n − 1 − j)! (n − 1)! 2^(2n−1)),
//     P(Y > t) = e^(−t) Σ_(i<n) a_i t^i,      a_i = (1/i!) Σ_(j>=i) c_j j!       (t >= 0),
// sums of positive terms, evaluated in MPFI. g_n is even and log-concave (a convolution of
// log-concave densities: Prékopa), so with ε0 = Δ/b the loss ℓ(y) = ln g_n(y − ε0) − ln g_n(y)
// rises from −ε0 to ε0 and the two orders are mirror images. A smaller shift is dominated by Δ:
// with a monotone likelihood ratio the best tests are thresholds (Neyman–Pearson), so the
// trade-off of a shift by Δ is α ↦ F(F⁻¹(1 − α) − Δ), F the sum's distribution function, which
// only falls as Δ grows.
//
// The outputs are cut where ℓ crosses each grid point: the crossing is found in double, then
// bracketed by two edges whose losses are certified to lie below and above the point, so that
// every piece between edges has its losses enclosed (pld/continuous.hpp makes the two PLDs).
// n = 1 is one client's own Laplace mechanism, whose profile δ(ε) = 1 − e^((ε − ε0)/2) bounds
// every n from above (the sum is a post-processing of client 1's output and the others').
//
// The law is the continuous one: the float sampler (fl/mechanisms/noise.cpp) draws a double
// Laplace variate and rounds the output to a float, as the Gaussian baseline's accountant also
// leaves aside.

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// Clients the exact sum is computed for (each evaluation costs n terms).
constexpr unsigned long kMaxLaplaceSumClients = 1000;

/// The pessimistic and optimistic PLDs of one use (the same in both orders).
using LaplacePlds = ContinuousPlds;
/// b > 0 the noise scale, Δ = sensitivity > 0, 1 <= n <= kMaxLaplaceSumClients. Raises
/// invalid_argument naming scale, sensitivity, n or max_cells.
LaplacePlds laplace_sum_plds(const Rational& scale, const Rational& sensitivity, unsigned long n,
                             const PldLimits& limits = {});

/// One coordinate, one round.
Accountant laplace_sum_accountant(const Rational& scale, const Rational& sensitivity, unsigned long n,
                                  const PldLimits& limits = {});

}  // namespace corbin
