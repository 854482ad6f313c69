#pragma once
// The meet of two pessimistic PLDs of one mechanism: where two different pairs each dominate
// the mechanism (two adversaries told different things: worst_case/noise_sum.hpp), one pair
// that dominates it and is dominated by both.
//
// The mechanism's hockey-stick curve lies below both pairs' curves h_a and h_b, so below the
// largest convex curve under min(h_a, h_b) on a grid: the meet, no larger than either anywhere
// (pld/curve.hpp builds the pessimistic PLD of that curve from the bounds at the grid points).

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
