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

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// The pessimistic and optimistic PLDs of one use (the same in both orders).
using GaussianPlds = ContinuousPlds;
GaussianPlds gaussian_sum_plds(const Real& sigma, const Rational& sensitivity, unsigned long n,
                               const PldLimits& limits = {});

/// One coordinate, one round: Δ = sensitivity > 0, σ > 0, n >= 1 clients. Raises
/// invalid_argument naming sigma, sensitivity or n.
Accountant gaussian_sum_accountant(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits = {});

}  // namespace corbin
