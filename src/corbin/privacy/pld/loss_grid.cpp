#include "corbin/privacy/pld/loss_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/mp.hpp"
#include "corbin/privacy/pld/moments.hpp"

namespace corbin {

using namespace directed;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Atoms lighter than this may fall outside the grid (a top one goes to +∞, a bottom one up to
/// the lowest point): they decide the span no more than their mass decides δ.
constexpr double kNegligible = 1e-40;

}  // namespace

LossGrid grid_for(const std::vector<std::pair<const WindowPmf*, const WindowPmf*>>& samples,
                  const PldLimits& limits, double margin) {
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  double lo = kInf, hi = -kInf;
  for (const auto& [p, q] : samples)
    for (std::size_t i = 0; i < p->size(); ++i) {
      if (p->hi[i] < kNegligible || q->lo[i] <= 0) continue;
      const double y = std::log(p->hi[i] / q->lo[i]);  // the span only: any value is safe
      if (!std::isfinite(y)) continue;                 // a ratio past the doubles: not in the span
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  if (lo > hi) lo = hi = 0;
  const double extra = (hi - lo) * margin;
  lo -= extra;
  hi += extra;
  // A span of at least 2^-30 of the losses' size (one atom alone has none), and points that stay
  // far inside the range of 64-bit offsets (|loss|/h below 2^50).
  const double size = std::max({1.0, std::fabs(lo), std::fabs(hi)});
  const double span = std::max(hi - lo, std::ldexp(size, -30));
  LossGrid g;
  const int finest = static_cast<int>(std::ceil(std::log2(size))) - 50;
  g.scale = std::clamp(
      static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 4)))),
      std::max(-80, finest), 60);
  const double h = std::ldexp(1.0, g.scale);
  g.offset = static_cast<std::int64_t>(std::floor(lo / h)) - 1;
  g.top = static_cast<std::int64_t>(std::ceil(hi / h)) + 1;
  return g;
}

GridSplitter::GridSplitter(const LossGrid& grid) : grid_(grid) {
  const std::size_t n = grid.points();
  exp_lo_.resize(n);
  exp_hi_.resize(n);
  Mp e;
  for (std::size_t k = 0; k < n; ++k) {
    const Mp y = Mp::grid_point(grid.offset + static_cast<std::int64_t>(k), grid.scale);
    mpfr_exp(e.get(), y.get(), MPFR_RNDD);
    exp_lo_[k] = e.down();
    mpfr_exp(e.get(), y.get(), MPFR_RNDU);
    exp_hi_[k] = e.up();
  }
  const Mp minus_h = Mp::grid_point(-1, grid.scale);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDU);
  decay_hi_ = e.up();
  rise_lo_ = sub_down(1.0, decay_hi_);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDD);
  rise_hi_ = sub_up(1.0, e.down());
}

UpperPld GridSplitter::split(const WindowPmf& p, const WindowPmf& q, bool disjoint) const {
  UpperPld out;
  out.scale = grid_.scale;
  out.offset = grid_.offset;
  out.mass.assign(grid_.points(), 0.0);
  if (disjoint) {
    out.infinite = 1;
    return out;
  }
  double infinite = p.tail;  // the P-mass outside the window
  const std::size_t last = grid_.points() - 1;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double pm = p.hi[i];
    if (pm == 0) continue;
    const double ratio = q.lo[i] > 0 ? div_up(pm, q.lo[i]) : kInf;  // e^(loss), bounded above
    if (ratio == kInf || ratio > exp_hi_[last]) {  // beyond the top point, or at it uncertified
      infinite = add_up(infinite, pm);
      continue;
    }
    // g: the last point with e^(y_g) possibly <= ratio; then the loss is certainly below y_(g+1).
    const auto it = std::upper_bound(exp_lo_.begin(), exp_lo_.end(), ratio);
    if (it == exp_lo_.begin()) {  // below the grid: moved up to its lowest point
      out.mass[0] = add_up(out.mass[0], pm);
      continue;
    }
    const auto g = static_cast<std::size_t>(it - exp_lo_.begin()) - 1;
    if (g == last) {
      infinite = add_up(infinite, pm);
      continue;
    }
    // The split keeps P- and Q-mass: weight β = (1 − e^(y_g − y))/(1 − e^(−h)) to the upper point
    // for the loss y = ln(ratio). Both weights are bounded above; where y >= y_g is not certain
    // (ratio below e^(y_g)'s upper end), β's lower bound is 0 and the lower point takes it whole,
    // as if the loss were y_g: mass only moves up.
    const double to_upper =
        std::min(1.0, div_up(sub_up(1.0, div_down(exp_lo_[g], ratio)), rise_lo_));
    const double beta_lo =
        std::max(0.0, div_down(sub_down(1.0, div_up(exp_hi_[g], ratio)), rise_hi_));
    const double to_lower = std::min(1.0, sub_up(1.0, beta_lo));
    out.mass[g] = add_up(out.mass[g], mul_up(pm, to_lower));
    out.mass[g + 1] = add_up(out.mass[g + 1], mul_up(pm, to_upper));
  }
  out.infinite = std::min(1.0, infinite);
  return out;
}

std::vector<double> GridSplitter::profile_up(const UpperPld& a) const {
  // H(γ_k) = m_∞ + Σ_(i > k) m_i (1 − e^((k − i)h)) = m_∞ + D_k with, from the top down,
  //     W_k = e^(−h) (W_(k+1) + m_(k+1)),   D_k = D_(k+1) + (1 − e^(−h)) (W_(k+1) + m_(k+1)).
  if (a.scale != grid_.scale || a.offset != grid_.offset || a.mass.size() != grid_.points())
    throw std::logic_error("profile_up: masses on another grid");
  const std::size_t n = grid_.points();
  std::vector<double> h(n);
  double w = 0, d = 0;
  h[n - 1] = a.infinite;
  for (std::size_t k = n - 1; k-- > 0;) {
    const double t = add_up(w, a.mass[k + 1]);
    d = add_up(d, mul_up(rise_hi_, t));
    w = mul_up(decay_hi_, t);
    h[k] = std::min(1.0, add_up(d, a.infinite));
  }
  return h;
}

std::vector<double> GridSplitter::tail_factors(double max_loss) {
  const auto& orders = moment_orders();
  std::vector<double> out(orders.size(), kInf);
  if (!(max_loss < kInf)) return out;
  Mp x(64);
  for (std::size_t o = 0; o < orders.size(); ++o) {
    mpfr_set_d(x.get(), max_loss, MPFR_RNDU);
    mpfr_mul_d(x.get(), x.get(), orders[o], MPFR_RNDU);
    mpfr_exp(x.get(), x.get(), MPFR_RNDU);
    out[o] = x.up();
  }
  return out;
}

std::vector<double> GridSplitter::moments_up(const UpperPld& a,
                                             const std::vector<double>* tail) const {
  if (a.scale != grid_.scale || a.offset != grid_.offset || a.mass.size() != grid_.points())
    throw std::logic_error("moments_up: masses on another grid");
  const auto& orders = moment_orders();
  std::call_once(moments_once_, [this, &orders] {
    // e^(μ y_k) from the lowest point up: one MPFR exponential per order for the start and the
    // step, then products rounded up (the bound drifts by one unit in the last place a step).
    exp_order_.assign(orders.size(), std::vector<double>(grid_.points()));
    Mp y(128), e(128);
    for (std::size_t o = 0; o < orders.size(); ++o) {
      mpfr_mul_d(y.get(), Mp::grid_point(grid_.offset, grid_.scale).get(), orders[o], MPFR_RNDU);
      mpfr_exp(e.get(), y.get(), MPFR_RNDU);
      double at = e.up();
      mpfr_mul_d(y.get(), Mp::grid_point(1, grid_.scale).get(), orders[o], MPFR_RNDU);
      mpfr_exp(e.get(), y.get(), MPFR_RNDU);
      const double step = e.up();
      for (std::size_t k = 0; k < grid_.points(); ++k) {
        exp_order_[o][k] = at;
        at = mul_up(at, step);
      }
    }
  });
  std::size_t first = 0, last = a.mass.size();
  while (first < last && a.mass[first] == 0) ++first;
  while (last > first && a.mass[last - 1] == 0) last -= 1;
  std::vector<double> out(orders.size());
  for (std::size_t o = 0; o < orders.size(); ++o) {
    double s = 0;
    const std::vector<double>& e = exp_order_[o];
    for (std::size_t k = first; k < last; ++k)
      if (a.mass[k] > 0) s += a.mass[k] * e[k];  // widened below
    const directed::SumWidening widen(last - first + 1, 2);
    s = widen.up(s);
    if (a.infinite > 0) s = add_up(s, tail ? mul_up(a.infinite, (*tail)[o]) : kInf);
    out[o] = s;
  }
  return out;
}

}  // namespace corbin
