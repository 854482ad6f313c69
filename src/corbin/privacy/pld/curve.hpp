#pragma once
// A mechanism's hockey-stick curve h(γ) = H_γ(P||Q), bounded above, and a pessimistic PLD
// built under such a bound (pld/meet.hpp's meet, worst_case/counted_remove.hpp's pair).
//
// A pair's curve is convex in γ >= 0, falls, has h(0) = 1, and every such curve that levels off
// is some pair's. Where a mechanism's curve is known only through upper bounds v_i >= h(γ_i) at
// grid points γ_i = e^(y_i), it lies below the largest convex curve under those points joined
// to (0, 1), their lower convex hull: h is convex, so below every chord between points it lies
// under, and it falls, so below the last point's value past it. A broken line with corners at
// γ_i and constant past the last one is Σ ω_i(1 − γ/γ_i)₊ + ω_∞, ω_i = γ_i times the rise of its
// slope at γ_i: the pessimistic PLD with mass ω_i at loss y_i. Each ω_i is rounded up, and a
// corner that rounding made concave gets 0 rather than a negative mass: raising any ω_i only
// raises the curve, so the PLD's curve still lies above h.

#include <cstdint>
#include <functional>
#include <vector>

#include "corbin/privacy/pld/pld.hpp"

namespace corbin {

/// A pessimistic PLD's curve h(t) = m_∞ + Σ m_i (1 − t e^(−y_i))₊ bounded above at any t >= 0
/// in O(log cells + 1/step): the terms with y_i > ln t are a suffix; those within ln 2 of ln t
/// are summed one by one (where 1 − t e^(−y_i) is small), the rest from suffix sums of m_i and
/// m_i e^(−y_i), which lose no precision there (the sum is at least half of its first part).
/// Every rounding is upward in the result; at most 1 (no pair's curve passes 1).
class CurveBound {
 public:
  explicit CurveBound(const UpperPld& a);
  /// An upper bound on h(t) (and on h at every point above t: the curve falls); t >= 0.
  double at(double t) const;

 private:
  double infinite_ = 0;
  std::vector<double> mass_, exp_lo_, exp_hi_;  ///< m_i, and e^(y_i) enclosed
  std::vector<double> inv_lo_;                  ///< e^(−y_i) bounded below
  std::vector<double> above_, weighted_;        ///< Σ_(j >= i) m_j up, Σ_(j >= i) m_j e^(−y_j) down
  std::size_t window_ = 1;                      ///< grid points within ln 2
};

/// The loss at the first point where the PLD's mass from its bottom up to it (included) passes
/// `mass`, or at its top point where none does; and its top point's loss.
double loss_above_mass(const UpperPld& a, double mass);
double top_loss(const UpperPld& a);

/// A lower bound on e^(k·2^scale) in double (0 where it underflows).
double exp_point_down(int scale, std::int64_t k);

/// The pessimistic PLD of the broken line under `bound` (see above) at the grid points
/// k·2^scale from the one at or below `lo` up to the first one past which `bound` has levelled off
/// (within 10^−9 of its value at `hi`: the rest becomes mass at +∞), the step coarsened by powers
/// of 2 to at most 2·limits.max_cells points. `bound(t)` is an upper bound on the mechanism's
/// curve at t >= 0 (a lower bound on the grid point's e^y is passed: the curve falls). Raises
/// invalid_argument("lo") unless lo <= hi, both finite.
UpperPld pld_under_curve(const std::function<double(double)>& bound, double lo, double hi, int scale,
                         const PldLimits& limits);

}  // namespace corbin
