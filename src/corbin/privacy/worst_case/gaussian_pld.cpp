#include "corbin/privacy/worst_case/gaussian_pld.hpp"

#include <algorithm>
#include <cmath>
#include <mpfr.h>
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

double up(const Real& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDU); }
double down(const Real& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDD); }
/// A mass's lower end (a rounding of an enclosure may reach below 0).
double mass_down(const Real& x) { return std::max(0.0, down(x)); }

/// N(mean, μ²)'s distribution at every grid point y_k, k in [first, last]: Φ((y − mean)/μ)
/// where that is at most 1/2 and the upper tail Φ(−(y − mean)/μ) beyond, so that a cell's mass
/// is a difference of two small numbers, not of two near 1 (which would lose a tail cell's mass
/// to cancellation). One erfc a point.
class GridNormal {
 public:
  GridNormal(std::int64_t first, std::int64_t last, const Rational& step, const Interval& mean, const Interval& mu)
      : first_(first) {
    for (std::int64_t k = first; k <= last; ++k) {
      const Interval z(Interval(interval_from(Rational(step * k)) - mean) / mu);
      const bool upper = lower_of(z) > 0;
      upper_.push_back(upper);
      value_.push_back(upper ? normal_cdf(Interval(-z)) : normal_cdf(z));
    }
  }
  /// P(y_a < X <= y_b), a < b, enclosed.
  Interval mass(std::int64_t a, std::int64_t b) const {
    const std::size_t i = at(a), j = at(b);
    if (upper_[i]) return Interval(value_[i] - value_[j]);    // both in the upper tail
    if (!upper_[j]) return Interval(value_[j] - value_[i]);   // both in the lower part
    return Interval(1 - value_[i] - value_[j]);               // across the middle
  }
  /// P(X <= y_a) and P(X > y_a), enclosed.
  Interval below(std::int64_t a) const { return upper_[at(a)] ? Interval(1 - value_[at(a)]) : value_[at(a)]; }
  Interval above(std::int64_t a) const { return upper_[at(a)] ? value_[at(a)] : Interval(1 - value_[at(a)]); }

 private:
  std::size_t at(std::int64_t k) const { return static_cast<std::size_t>(k - first_); }
  std::int64_t first_;
  std::vector<bool> upper_;
  std::vector<Interval> value_;
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
  const double span = up(upper_of(Interval(2 * kSpread * mu)));
  const int scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 2))));
  const Rational step = scale >= 0 ? Rational(BigInt(1) << scale) : Rational(1, BigInt(1) << -scale);
  const auto point = [&](std::int64_t k) { return interval_from(Rational(step * k)); };
  const double h = std::ldexp(1.0, scale);
  const auto offset = static_cast<std::int64_t>(std::floor(down(lower_of(Interval(mean - kSpread * mu))) / h));
  const auto top = static_cast<std::int64_t>(std::ceil(up(upper_of(Interval(mean + kSpread * mu))) / h));
  const auto cells = static_cast<std::size_t>(top - offset + 1);
  const GridNormal p_law(offset, top, step, mean, mu), q_law(offset, top, step, Interval(-mean), mu);
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
  upper.mass[0] = std::min(1.0, up(upper_of(p_law.below(offset))));
  for (std::size_t i = 1; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    add_split(upper, k - 1, k, p_law.mass(k - 1, k), q_law.mass(k - 1, k), e_minus[i - 1], e_minus[i]);
  }
  upper.infinite = up(upper_of(p_law.above(top)));
  // Optimistic: [y_k, y_(k+1)) merged (the same cells, closed on the other side: the law has no
  // atoms), the top cell taking everything above; its t is Q's mass times e^(y_k).
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int64_t k = offset + static_cast<std::int64_t>(i);
    const bool last = i + 1 == cells;
    const Interval p = last ? p_law.above(k) : p_law.mass(k, k + 1);
    const Interval q = last ? q_law.above(k) : q_law.mass(k, k + 1);
    lower.p[i] = mass_down(lower_of(p));
    lower.t[i] = up(upper_of(Interval(q / e_minus[i])));
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
