#include "corbin/privacy/worst_case/gaussian_pld.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/formulas/baselines.hpp"
#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"

namespace corbin {
namespace {

/// Losses beyond this many standard deviations of the mean go to +∞ (pessimistic) or are
/// dropped (optimistic): Φ(−20) < 10^−88, below what a trim keeps (PldLimits::tail).
constexpr int kSpread = 20;

/// A mass's lower end (a rounding of an enclosure may reach below 0).
double mass_down(const Real& x) { return std::max(0.0, to_double_down(x)); }

/// N(mean, μ²)'s distribution at every grid point y_k, k in [first, last], as tails (Φ((y −
/// mean)/μ) up to 1/2, Φ(−(y − mean)/μ) beyond: continuous.hpp's Tail). One erfc a point.
class GridNormal {
 public:
  GridNormal(std::int64_t first, std::int64_t last, int scale, const Interval& mean, const Interval& mu)
      : first_(first) {
    for (std::int64_t k = first; k <= last; ++k) {
      const Interval z(Interval(interval_from(grid_point(scale, k)) - mean) / mu);
      const bool upper = lower_of(z) > 0;
      tail_.push_back({upper, upper ? normal_cdf(Interval(-z)) : normal_cdf(z)});
    }
  }
  /// P(y_a < X <= y_b), a < b, enclosed.
  Interval mass(std::int64_t a, std::int64_t b) const { return mass_between(at(a), at(b)); }
  /// The tail at y_a.
  const Tail& at(std::int64_t a) const { return tail_[static_cast<std::size_t>(a - first_)]; }

 private:
  std::int64_t first_;
  std::vector<Tail> tail_;
};

}  // namespace

GaussianPlds gaussian_sum_plds(const Real& sigma, const Rational& sensitivity, unsigned long n,
                               const PldLimits& limits) {
  if (!(sigma > 0) || !isfinite(sigma)) throw invalid_argument("sigma", to_decimal(sigma, 6), "positive and finite");
  if (sensitivity <= 0) throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
  if (n < 1) throw invalid_argument("n", std::to_string(n), "at least 1");
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  // 128 bits whatever the caller's: enough for every mass kept (the tails are taken as tails).
  PrecisionScope scope(128);
  const Interval mu(interval_from(sensitivity) / (interval_hull(sigma, sigma) * sqrt(interval_from(Rational(n)))));
  const Interval mean(mu * mu / 2);
  // The grid: about max_cells points of step 2^scale over mean ± kSpread·μ.
  const double span = to_double_up(upper_of(Interval(2 * kSpread * mu)));
  const int scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 2))));
  const auto point = [&](std::int64_t k) { return interval_from(grid_point(scale, k)); };
  const double h = std::ldexp(1.0, scale);
  const auto offset = static_cast<std::int64_t>(std::floor(to_double_down(lower_of(Interval(mean - kSpread * mu))) / h));
  const auto top = static_cast<std::int64_t>(std::ceil(to_double_up(upper_of(Interval(mean + kSpread * mu))) / h));
  const auto cells = static_cast<std::size_t>(top - offset + 1);
  const GridNormal p_law(offset, top, scale, mean, mu), q_law(offset, top, scale, Interval(-mean), mu);
  std::vector<Interval> e_minus;  // e^(−y_k), and e^(y_k) below
  for (std::int64_t k = offset; k <= top; ++k) e_minus.push_back(exp(Interval(-point(k))));
  UpperPld upper;
  upper.scale = scale;
  upper.offset = offset;
  upper.mass.assign(cells, 0.0);
  LowerPld lower;
  lower.scale = scale;
  lower.offset = offset;
  lower.p.assign(cells, 0.0);
  lower.t.assign(cells, 0.0);
  lower.y.assign(cells, 0.0);
  // Pessimistic: everything below the lowest point at it; each cell (y_(k−1), y_k] split onto its
  // two points keeping its P-mass and its Q-mass (= E_P[e^(−L)] there): the cell is a merge of the
  // split atoms, a post-processing, so the split dominates it, and to second order in the step.
  // Each part is taken at an upper end (more mass, or mass moved up in loss, only raises δ).
  upper.mass[0] = std::min(1.0, to_double_up(upper_of(p_law.at(offset).below())));
  for (std::size_t i = 1; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    add_split(upper, k - 1, k, p_law.mass(k - 1, k), q_law.mass(k - 1, k), e_minus[i - 1], e_minus[i]);
  }
  upper.infinite = to_double_up(upper_of(p_law.at(top).above()));
  // Optimistic: [y_k, y_(k+1)) merged (the same cells, closed on the other side: the law has no
  // atoms), the top cell taking everything above; its t is Q's mass times e^(y_k).
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    const bool last = i + 1 == cells;
    const Interval p = last ? p_law.at(k).above() : p_law.mass(k, k + 1);
    const Interval q = last ? q_law.at(k).above() : q_law.mass(k, k + 1);
    lower.p[i] = mass_down(lower_of(p));
    lower.t[i] = to_double_up(upper_of(Interval(q / e_minus[i])));
    lower.y[i] = (static_cast<double>(k) + 0.5) * h;
  }
  return {upper, lower};
}

Accountant gaussian_sum_accountant(const Real& sigma, const Rational& sensitivity, unsigned long n,
                                   const PldLimits& limits) {
  const GaussianPlds plds = gaussian_sum_plds(sigma, sensitivity, n, limits);
  return shift_pair_accountant(plds.upper, plds.lower, n, "N(0, sigma^2)", limits);
}

}  // namespace corbin
