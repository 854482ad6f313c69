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

#include <cstdint>
#include <string>

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"

namespace corbin {

/// Clients the exact sum is computed for (each evaluation costs n terms).
constexpr unsigned long kMaxLaplaceSumClients = 1000;

/// The pessimistic and optimistic PLDs of one use (the same in both orders).
using LaplacePlds = ContinuousPlds;
/// b > 0 the noise scale, Δ = sensitivity > 0, 1 <= n <= kMaxLaplaceSumClients. Raises
/// invalid_argument naming scale, sensitivity, n or max_cells.
LaplacePlds laplace_sum_plds(const Rational& scale, const Rational& sensitivity, unsigned long n,
                             const PldLimits& limits = {});
/// The same pair's outputs cut into pieces (noise_sum.hpp: a dropout round told the number of
/// survivors is made from them).
PiecesOnGrid laplace_shift_pieces(const Rational& scale, const Rational& sensitivity, unsigned long n,
                                  const PldLimits& limits = {});

// Remove one. With client 1 the sum is S + x + (n clients' noise), without it S + (n − 1
// clients'): in units of b the pair is P = g_n(· − a) against Q = g_(n−1), a = |x|/b (Q is even:
// the sign of x is a mirror image), and n = 1 leaves nothing against client 1's noisy input
// (disjoint). The input farthest from 0, |x| = |c| + r, is the worst, in both orders and at every
// e^ε, for any noise whose densities are even and fall away from 0 (g_n, g_(n−1) here; the
// normal's too). H_γ(a) = H_γ(P_a||Q) = sup_S P_a(S) − γQ(S) is Lipschitz in a (P_a moves in
// total variation at most ∫|g_n'| per unit), so it rises if its lower right derivative is
// >= 0 everywhere; holding S at A = {ℓ > ln γ} (the supremum's set at a) bounds that derivative
// below by, with h(t) = −g_n'(t) >= 0 for t > 0 (g_n' integrable: differentiation under ∫),
//     ∫_A ∂_a g_n(y − a) dy = ∫_A −g_n'(y − a) dy = ∫_0^∞ h(t) (1_A(a + t) − 1_A(a − t)) dt,
// and ℓ(a + t) − ℓ(a − t) = ln g_(n−1)(a − t) − ln g_(n−1)(a + t) >= 0 for a, t >= 0
// (|a − t| <= a + t), so a − t in A puts a + t in A and the integrand is >= 0; H_γ(Q||P_a)
// likewise with S held at {ℓ < −ln γ}, where a + t in it puts a − t in it. So the pair at
// |c| + r dominates every input: both ends are its PLDs, attained there (client 1 removed).
//
// The loss ℓ(y) = ln g_n(y − a) − ln g_(n−1)(y) is no longer monotone (it rises like ln|y| at
// both ends): the outputs are cut at its crossings of each grid point found in double, and every
// piece's losses are enclosed whatever its shape, from the losses at its ends and its slope's
// range there: ℓ' = ψ_(n−1)(y) − ψ_n(y − a), ψ_k = −(ln g_k)' rising (log-concave), so on [u, v]
// ℓ' lies in [ψ_(n−1)(u) − ψ_n(v − a), ψ_(n−1)(v) − ψ_n(u − a)]: of one sign, the piece's losses
// lie between its ends'; else within the mean value's bounds from either end. Beyond the
// outputs of the order's first law (its tails under the trim) only ℓ >= −a − ln 2 is used: ln g_(n−1) is 1-Lipschitz
// (|ψ| <= 1), so g_n(y − a) = E g_(n−1)(y − a − Z) >= g_(n−1)(y)·E e^(−a − |Z|) = g_(n−1)(y)·e^(−a)/2.

/// The largest a = shift/b the remove pair is built for.
constexpr double kMaxLaplaceRemoveShift = 1e6;
/// b > 0, shift = |x| in (0, kMaxLaplaceRemoveShift·b], 2 <= n <= kMaxLaplaceSumClients. Raises
/// invalid_argument naming scale, shift, n or max_cells.
RemovePlds laplace_remove_plds(const Rational& scale, const Rational& shift, unsigned long n,
                               const PldLimits& limits = {});
/// The same, the outputs cut into pieces (noise_sum.hpp: a dropout round's mixtures are made
/// from them).
RemovePieces laplace_remove_pieces(const Rational& scale, const Rational& shift, unsigned long n,
                                   const PldLimits& limits = {});
/// One coordinate, one round, client 1 at `input` (the extreme farther from 0, in words such as
/// "c + r") with |input| = shift.
Accountant laplace_remove_accountant(const Rational& scale, const Rational& shift, unsigned long n,
                                     const std::string& input, const PldLimits& limits = {});

/// Remove one with dropout: noise_sum.hpp's mixture over who survived above, met with the count
/// told (one coordinate: the shift pair of k clients at 2r; m >= 2: counted_remove.hpp's, from
/// that pair composed over the m coordinates), the sum alone
/// through bins of one coordinate below (while its work stays under the cap: n·p(1 − p) small).
/// b > 0, n in [2, kMaxLaplaceSumClients]; raises what noise_remove_dropout_accountant and
/// laplace_remove_plds raise.
Accountant laplace_remove_dropout_accountant(const Rational& scale, const Rational& center, const Rational& radius,
                                             unsigned long n, const Rational& p, std::uint64_t m,
                                             const PldLimits& limits = {});

/// One coordinate, one round.
Accountant laplace_sum_accountant(const Rational& scale, const Rational& sensitivity, unsigned long n,
                                  const PldLimits& limits = {});

}  // namespace corbin
