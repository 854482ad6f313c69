#pragma once
// The Gaussian baseline's round, accounted in closed form: n clients each add N(0, σ²) to a
// clipped input in [c − r, c + r], and the released sum moves by at most Δ = 2r when client 1's
// input is replaced. Whatever the other inputs, the pair is N(Δ, nσ²) against N(0, nσ²) (a
// shift: the others' inputs move both alike), so its privacy loss is exactly Gaussian:
//     L ~ N(μ²/2, μ²) under P,  N(−μ²/2, μ²) under Q,  μ = Δ/(σ√n),
// the same in both orders, and a smaller shift is dominated by it. k uses compose to μ√k, whose
// profile δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) is the analytic Gaussian's (baselines.hpp:
// agm_delta_enclosure), the tests' reference.
//
// Discretised on a grid of losses (pld.hpp's two kinds), every mass from enclosures of Φ:
// pessimistic, each cell split onto its two points keeping its P-mass and its Q-mass (pld.hpp's
// split: the cell is a merge of the split atoms), each part rounded up, the mass above the grid
// at +∞ and below it at the lowest point; optimistic, each
// cell's outputs merged (a post-processing), its P-mass rounded down and its Q-mass up, the mass
// below the grid dropped.

#include <string>

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"

namespace corbin {

/// The pessimistic and optimistic PLDs of one use (the same in both orders).
using GaussianPlds = ContinuousPlds;
GaussianPlds gaussian_sum_plds(const Real& sigma, const Rational& sensitivity, unsigned long n,
                               const PldLimits& limits = {});

/// The same pair's outputs cut into pieces: the cells between grid points, and below and above
/// the grid (noise_sum.hpp: a dropout round told the number of survivors is made from them), at
/// the working precision (worker threads share the caller's).
PiecesOnGrid gaussian_shift_pieces(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits = {});

/// One coordinate, one round: Δ = sensitivity > 0, σ > 0, n >= 1 clients. Raises
/// invalid_argument naming sigma, sensitivity or n.
Accountant gaussian_sum_accountant(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits = {});

// Remove one. With client 1 the sum is S + x + N(0, nσ²), without it S + N(0, (n − 1)σ²): the
// others' inputs S move both alike, so in units of σ the pair is P = N(a, n) against
// Q = N(0, n − 1), a = |x|/σ (Q is even, so the sign of x is a mirror image). Its loss is a convex
// quadratic in the output y,
//     L(y) = ln p(y)/q(y) = L_min + (y − y*)²/(2n(n − 1)),  y* = −a(n − 1),
//     L_min = −a²/2 − ln(n/(n − 1))/2,
// so the outputs of loss in (ℓ1, ℓ2] are the two intervals ρ(ℓ1) < |y − y*| <= ρ(ℓ2),
// ρ(ℓ) = √(2n(n − 1)(ℓ − L_min)): unbounded above (P's tails), bounded below; the other order is
// −L under Q. The farthest input from 0, |x| = |c| + r, is the worst, in both orders and at
// every e^ε: d/da H_γ(P||Q) = ∫_A ∂_a p = −∫_A ∂_y p over A = {p > γq}, the outside of an
// interval [u, v] (L convex), which is p(v) − p(u) = γ(q(v) − q(u)) >= 0 since u + v = 2y* <= 0
// makes |u| >= |v| and q falls with |y|; likewise H_γ(Q||P) over the interval (u, v) itself
// gives q(v) − q(u) >= 0. So the pair at |c| + r dominates every input, and both ends are its
// PLDs: exact, attained at client 1 on the extreme farther from 0 (and removed).

/// The pessimistic and optimistic PLDs of one use, with client 1 against without (`forward`) and
/// the other way round (`backward`).
using GaussianRemovePlds = RemovePlds;
/// The largest shift, in units of σ, the pair is built for: its losses reach about shift²/2, and
/// past about 10^8 nats e^(±loss) leaves MPFR's exponent range (an ε of 5·10^5 at the limit).
constexpr double kMaxRemoveShift = 1000;
/// σ > 0, shift = |x| in (0, kMaxRemoveShift·σ], n >= 2 clients with client 1. Raises
/// invalid_argument naming sigma, shift, n or max_cells.
GaussianRemovePlds gaussian_remove_plds(const Real& sigma, const Rational& shift, unsigned long n,
                                        const PldLimits& limits = {});
/// The same, the outputs cut into pieces (noise_sum.hpp: a dropout round's mixtures are made
/// from them).
RemovePieces gaussian_remove_pieces(const Real& sigma, const Rational& shift, unsigned long n,
                                    const PldLimits& limits = {});

/// One coordinate, one round, client 1 at `input` (the extreme farther from 0, in words such as
/// "c + r") with |input| = shift.
Accountant gaussian_remove_accountant(const Real& sigma, const Rational& shift, unsigned long n,
                                      const std::string& input, const PldLimits& limits = {});

// Remove one with dropout: noise_sum.hpp's noise_remove_dropout_accountant, with N(0, k) the
// law of k clients' noise in units of σ, and through bins below also the round's m coordinates
// added (every input the same in each: one coordinate's release at inputs m·x and noise m·σ² a
// client). Its count-told pair above takes the m coordinates together: shifts of at most 2r in
// each are one shift of at most 2r√m, the shift pair at σ/√m (rounded down) and 2r.

/// One dropout round, m >= 1 coordinates sharing the draw, the whole round one use: n >= 2
/// clients, p in (0, 1), radius r > 0, centre c, σ > 0. Raises invalid_argument naming dropout,
/// n, m, radius, or what gaussian_remove_plds raises. The lower end is computed where its laws
/// times its bins are at most 2^20 (about n·p(1 − p) < 475: n < 1 900 at p = 1/2, 5 300 at 1/10);
/// past that the round has its upper end alone.
Accountant gaussian_remove_dropout_accountant(const Real& sigma, const Rational& center, const Rational& radius,
                                              unsigned long n, const Rational& p, std::uint64_t m,
                                              const PldLimits& limits = {});

}  // namespace corbin
