#include "corbin/privacy/pld/meet.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "corbin/number/directed.hpp"
#include "corbin/privacy/pld/continuous.hpp"

namespace corbin {

UpperPld meet(const UpperPld& a, const UpperPld& b, const PldLimits& limits) {
  // The grid: from the lowest loss below which either holds more than 10^−30 of mass (the rest
  // moves up to the first point) to the first point past which min(h_a, h_b) has levelled off
  // (within 10^−9 of its value at both grids' ends: the rest becomes mass at +∞), with the finer
  // step, coarsened by powers of 2 to at most 2·max_cells points.
  const auto loss_at = [](const UpperPld& x, std::size_t i) {
    return std::ldexp(static_cast<double>(x.offset + static_cast<std::int64_t>(i)), x.scale);
  };
  const auto bottom = [&](const UpperPld& x) {
    double below = 0;
    for (std::size_t i = 0; i < x.mass.size(); ++i)
      if ((below += x.mass[i]) > 1e-30) return loss_at(x, i);
    return loss_at(x, x.mass.size() - 1);
  };
  const double lo = std::min(bottom(a), bottom(b));
  const double hi = std::max(loss_at(a, a.mass.size() - 1), loss_at(b, b.mass.size() - 1));
  if (!(std::min(loss_at(a, 0), loss_at(b, 0)) >= -kMaxMeetLoss && hi <= kMaxMeetLoss))
    return a.infinite <= b.infinite ? a : b;
  const auto at = [&](int scale, std::int64_t k) {
    const Rational y = grid_point(scale, k);
    return std::min(delta_upper(a, y), delta_upper(b, y));
  };
  int scale = std::min(a.scale, b.scale);
  const auto last = static_cast<std::int64_t>(std::ceil(std::ldexp(hi, -scale)));
  const double level = at(scale, last) * (1 + 1e-9);
  std::int64_t below = static_cast<std::int64_t>(std::floor(std::ldexp(lo, -scale))) - 1, top = last;
  while (top - below > 1) {  // at(below) above the level (or none), at(top) at most it
    const std::int64_t mid = below + (top - below) / 2;
    (at(scale, mid) <= level ? top : below) = mid;
  }
  const double high = std::ldexp(static_cast<double>(top), scale);
  const auto cap = 2 * std::max<std::size_t>(limits.max_cells, 16);
  std::int64_t offset = 0;
  for (;; ++scale) {
    offset = static_cast<std::int64_t>(std::floor(std::ldexp(lo, -scale)));
    top = static_cast<std::int64_t>(std::ceil(std::ldexp(high, -scale)));
    if (static_cast<std::size_t>(top - offset + 1) <= cap) break;
  }
  const auto cells = static_cast<std::size_t>(top - offset + 1);
  // min(h_a, h_b) at every point, bounded above; the points (γ_i, v_i) in double for the hull.
  std::vector<double> v(cells), x(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    v[i] = at(scale, offset + static_cast<std::int64_t>(i));
    x[i] = std::exp(std::ldexp(static_cast<double>(offset + static_cast<std::int64_t>(i)), scale));
  }
  // The lower convex hull of (0, 1) and the points (index cells stands for (0, 1)), left to
  // right; the last point always a vertex (the curve is constant past it).
  const auto px = [&](std::size_t i) { return i == cells ? 0.0 : x[i]; };
  const auto pv = [&](std::size_t i) { return i == cells ? 1.0 : v[i]; };
  std::vector<std::size_t> hull{cells};
  for (std::size_t i = 0; i < cells; ++i) {
    while (hull.size() >= 2) {
      const std::size_t o = hull[hull.size() - 2], m = hull.back();
      // m lies on or above the chord from o to i: not a vertex.
      if ((pv(m) - pv(o)) * (px(i) - px(o)) >= (pv(i) - pv(o)) * (px(m) - px(o)))
        hull.pop_back();
      else
        break;
    }
    hull.push_back(i);
  }
  // The masses: ω at a corner is γ times the rise of the slope there, enclosed; the last
  // point's value is the mass at +∞.
  UpperPld out;
  out.scale = scale;
  out.offset = offset;
  out.mass.assign(cells, 0.0);
  out.infinite = v[cells - 1];
  std::vector<Interval> gamma, value;  // at each vertex, enclosed (γ = 0 at (0, 1))
  for (std::size_t i : hull) {
    gamma.push_back(i == cells ? interval_from(Rational(0))
                               : Interval(exp(interval_from(grid_point(scale, offset + static_cast<std::int64_t>(i))))));
    value.push_back(interval_from(to_rational(pv(i))));
  }
  const auto slope = [&](std::size_t j) {  // of the segment from vertex j to vertex j + 1
    if (j + 1 >= hull.size()) return interval_from(Rational(0));
    return Interval(Interval(value[j + 1] - value[j]) / Interval(gamma[j + 1] - gamma[j]));
  };
  Interval left = slope(0);
  for (std::size_t j = 1; j < hull.size(); ++j) {
    const Interval right = slope(j);
    const double w = to_double_up(upper_of(Interval(gamma[j] * Interval(right - left))));
    out.mass[hull[j]] = std::max(0.0, w);
    left = right;
  }
  return out;
}

}  // namespace corbin
