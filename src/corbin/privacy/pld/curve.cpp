#include "corbin/privacy/pld/curve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/continuous.hpp"

namespace corbin {

using namespace directed;

CurveBound::CurveBound(const UpperPld& a) : infinite_(a.infinite), mass_(a.mass) {
  const std::size_t cells = mass_.size();
  exp_lo_.resize(cells);
  exp_hi_.resize(cells);
  inv_lo_.resize(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    const Interval e(exp(interval_from(grid_point(a.scale, a.offset + static_cast<std::int64_t>(i)))));
    exp_lo_[i] = to_double_down(lower_of(e));
    exp_hi_[i] = to_double_up(upper_of(e));
    inv_lo_[i] = std::isfinite(exp_hi_[i]) ? div_down(1.0, exp_hi_[i]) : 0.0;
  }
  above_.assign(cells + 1, 0.0);
  weighted_.assign(cells + 1, 0.0);
  for (std::size_t i = cells; i-- > 0;) {
    above_[i] = add_up(above_[i + 1], mass_[i]);
    weighted_[i] = add_down(weighted_[i + 1], mul_down(mass_[i], inv_lo_[i]));
  }
  window_ = static_cast<std::size_t>(std::ceil(std::log(2.0) / std::ldexp(1.0, a.scale))) + 1;
}

double CurveBound::at(double t) const {
  if (!(t >= 0)) throw invalid_argument("t", std::to_string(t), "at least 0");
  // Terms before `first` have e^(y_i) <= t for certain (1 − t e^(−y_i) <= 0); from `sure` on,
  // e^(y_i) > t for certain (every term positive).
  const std::size_t first =
      static_cast<std::size_t>(std::upper_bound(exp_hi_.begin(), exp_hi_.end(), t) - exp_hi_.begin());
  const std::size_t sure =
      std::max(first, static_cast<std::size_t>(std::upper_bound(exp_lo_.begin(), exp_lo_.end(), t) - exp_lo_.begin()));
  const std::size_t direct = std::min(mass_.size(), sure + window_);
  double sum = infinite_;
  for (std::size_t i = first; i < direct; ++i) {
    if (mass_[i] <= 0) continue;
    const double term = mul_up(mass_[i], sub_up(1.0, mul_down(t, inv_lo_[i])));
    if (term > 0) sum = add_up(sum, term);
  }
  // Past the window every term has t e^(−y_i) < 1/2: the suffix sums' difference is at least half
  // of the first, so its rounding stays relative.
  sum = add_up(sum, std::max(0.0, sub_up(above_[direct], mul_down(t, weighted_[direct]))));
  return std::min(1.0, sum);
}

double loss_above_mass(const UpperPld& a, double mass) {
  double below = 0;
  for (std::size_t i = 0; i < a.mass.size(); ++i)
    if ((below += a.mass[i]) > mass) return std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(i)), a.scale);
  return top_loss(a);
}

double top_loss(const UpperPld& a) {
  return std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(a.mass.size()) - 1), a.scale);
}

double exp_point_down(int scale, std::int64_t k) {
  return std::max(0.0, to_double_down(lower_of(Interval(exp(interval_from(grid_point(scale, k)))))));
}

UpperPld pld_under_curve(const std::function<double(double)>& bound, double lo, double hi, int scale,
                         const PldLimits& limits) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo <= hi))
    throw invalid_argument("lo", std::to_string(lo), "finite and at most hi = " + std::to_string(hi));
  const auto at = [&](int s, std::int64_t k) { return bound(exp_point_down(s, k)); };
  // The top: the first point past which the bound has levelled off.
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
  // The bound at every point; the points (γ_i, v_i) in double for the hull.
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
