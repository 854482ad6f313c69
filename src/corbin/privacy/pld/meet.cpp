#include "corbin/privacy/pld/meet.hpp"

#include <algorithm>
#include <cmath>

#include "corbin/privacy/pld/curve.hpp"

namespace corbin {

UpperPld meet(const UpperPld& a, const UpperPld& b, const PldLimits& limits) {
  // The grid: from the lowest loss below which either holds more than 10^−30 of mass (the rest
  // moves up to the first point) to the first point past which min(h_a, h_b) has levelled off
  // (within 10^−9 of its value at both grids' ends: the rest becomes mass at +∞), with the finer
  // step, coarsened by powers of 2 to at most 2·max_cells points.
  const double lo = std::min(loss_above_mass(a, 1e-30), loss_above_mass(b, 1e-30));
  const double hi = std::max(top_loss(a), top_loss(b));
  const auto first = [](const UpperPld& x) { return std::ldexp(static_cast<double>(x.offset), x.scale); };
  if (!(std::min(first(a), first(b)) >= -kMaxMeetLoss && hi <= kMaxMeetLoss))
    return a.infinite <= b.infinite ? a : b;
  const CurveBound ha(a), hb(b);
  return pld_under_curve([&](double t) { return std::min(ha.at(t), hb.at(t)); }, lo, hi, std::min(a.scale, b.scale),
                         limits);
}

}  // namespace corbin
