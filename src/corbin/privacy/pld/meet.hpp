#pragma once
// The meet of two pessimistic PLDs of one mechanism: where two different pairs each dominate
// the mechanism (two adversaries told different things: worst_case/noise_sum.hpp), one pair
// that dominates it and is dominated by both.
//
// A pair's hockey-stick curve h(γ) = H_γ(P||Q) = E_P[(1 − γe^(−L))₊] + P(L = ∞) is convex in
// γ >= 0 with h(0) = 1, and every convex, falling curve with h(0) = 1 that levels off is some
// pair's. The mechanism's own curve h lies below both curves h_a and h_b, so it lies below
// the largest convex curve under min(h_a, h_b): that curve is the meet, no larger than either
// anywhere. On a grid of losses y_i (γ_i = e^(y_i)) we take min(h_a, h_b) at every point
// (bounded above), and join (0, 1) and some of the points by straight lines, choosing as
// vertices those of their lower convex hull: by convexity h lies below every such chord, so it
// lies below the broken line, whatever points were chosen. A broken line with corners at γ_i
// and constant past the last one is Σ ω_i(1 − γ/γ_i)₊ + ω_∞, ω_i = γ_i times the rise of its
// slope at γ_i: the pessimistic PLD with mass ω_i at loss y_i. Each ω_i is rounded up, and a
// corner that rounding made concave gets 0 rather than a negative mass: raising any ω_i only
// raises the curve, so the PLD's curve still lies above h.

#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// The meet of a and b (pessimistic PLDs of one mechanism, in one order) on a grid from the
/// lowest loss below which either holds over 10^−30 of mass up to where min(h_a, h_b) levels
/// off (within 10^−9 of its last value), with the finer step of theirs coarsened to at most
/// 2·limits.max_cells points; where either grid passes ±kMaxMeetLoss, the one of a and b with
/// the smaller +∞ mass.
UpperPld meet(const UpperPld& a, const UpperPld& b, const PldLimits& limits);
constexpr double kMaxMeetLoss = 600;

}  // namespace corbin
