#include "corbin/privacy/worst_case/laplace_sum.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/noise_sum.hpp"

namespace corbin {
namespace {

/// The sums have positive terms only, so their relative error stays near n·2^−64; the masses
/// are differences of tails, never of values near 1.
constexpr unsigned kBits = 64;

double nearest(const Interval& x) { return midpoint_of(x).convert_to<double>(); }

/// The sum of n Laplace(1) laws: its density and tail coefficients (the header's c_j and a_i),
/// enclosed, and their logarithms in double for the approximate crossings.
class LaplaceSum {
 public:
  explicit LaplaceSum(unsigned long n) : c_(n), a_(n), log_c_(n), log_a_(n) {
    // u_j = c_j·j!: u_(n−1) = 2^−n, u_j = u_(j+1)·(2n − 2 − j)/(2(n − 1 − j)).
    std::vector<Interval> u(n);
    u[n - 1] = interval_from(Rational(BigInt(1), BigInt(1) << n));
    for (unsigned long j = n - 1; j-- > 0;)
      u[j] = Interval(u[j + 1] * interval_from(Rational(BigInt(2 * n - 2 - j), BigInt(2 * (n - 1 - j)))));
    std::vector<Interval> suffix(n);
    Interval running = interval_from(Rational(0));
    for (unsigned long j = n; j-- > 0;) suffix[j] = running = Interval(running + u[j]);
    Interval factorial = interval_from(Rational(1));
    for (unsigned long j = 0; j < n; ++j) {
      if (j > 0) factorial = Interval(factorial * interval_from(Rational(BigInt(j))));
      c_[j] = Interval(u[j] / factorial);
      a_[j] = Interval(suffix[j] / factorial);
      log_c_[j] = nearest(log(c_[j]));
      log_a_[j] = nearest(log(a_[j]));
    }
  }

  /// ln g_n(y) for y >= 0 (g_n is even).
  Interval log_density(const Interval& y) const { return Interval(log(horner(c_, y)) - y); }
  /// P(Y > t) for t >= 0.
  Interval upper_tail(const Interval& t) const { return Interval(exp(Interval(-t)) * horner(a_, t)); }

  double approx_log_density(double y) const {
    y = std::fabs(y);
    return log_sum(log_c_, y) - y;
  }
  double approx_log_tail(double t) const { return log_sum(log_a_, t) - t; }

 private:
  static Interval horner(const std::vector<Interval>& coef, const Interval& y) {
    Interval v = coef.back();
    for (std::size_t j = coef.size() - 1; j-- > 0;) v = Interval(v * y + coef[j]);
    return v;
  }
  /// ln Σ_j e^(log_coef[j]) y^j, y >= 0.
  static double log_sum(const std::vector<double>& log_coef, double y) {
    if (y == 0) return log_coef[0];
    const double ly = std::log(y);
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < log_coef.size(); ++j)
      top = std::max(top, log_coef[j] + static_cast<double>(j) * ly);
    double sum = 0;
    for (std::size_t j = 0; j < log_coef.size(); ++j) sum += std::exp(log_coef[j] + static_cast<double>(j) * ly - top);
    return top + std::log(sum);
  }

  std::vector<Interval> c_, a_;
  std::vector<double> log_c_, log_a_;
};

/// The pair in units of b: P is Y + ε0, Q is Y.
class ShiftedPair {
 public:
  ShiftedPair(unsigned long n, const Rational& eps0) : law_(n), eps0_(eps0), eps0_double_(to_double(eps0)) {}

  double eps0() const { return eps0_double_; }
  const LaplaceSum& law() const { return law_; }

  /// ℓ(x) = ln g(x − ε0) − ln g(x), enclosed.
  Interval loss(const Rational& x) const {
    return Interval(law_.log_density(interval_from(abs(Rational(x - eps0_)))) - law_.log_density(interval_from(abs(x))));
  }
  double approx_loss(double x) const {
    return law_.approx_log_density(x - eps0_double_) - law_.approx_log_density(x);
  }
  /// P's (shifted) or Q's tail at x. Each edge has its own: the split of a piece divides its
  /// masses' enclosures by a grid step, so an enclosure shared by two nearby edges (their
  /// difference's width) would cost more than the second evaluation.
  Tail tail(const Rational& x, bool p) const {
    const Rational d = p ? Rational(x - eps0_) : x;
    return Tail{d >= 0, law_.upper_tail(interval_from(abs(d)))};
  }

 private:
  LaplaceSum law_;
  Rational eps0_;
  double eps0_double_;
};

/// Where the approximate loss crosses y, by regula falsi (Illinois) from a table of the loss at
/// increasing xs; none where y is not strictly between −ε0 and ε0.
class Crossings {
 public:
  Crossings(const ShiftedPair& pair, double from, double to, std::size_t points, double tolerance)
      : pair_(pair), tolerance_(tolerance) {
    for (std::size_t i = 0; i < points; ++i) {
      const double x = from + (to - from) * static_cast<double>(i) / static_cast<double>(points - 1);
      xs_.push_back(x);
      ls_.push_back(pair.approx_loss(x));
    }
  }

  std::optional<double> at(double y) const {
    if (!(y > -pair_.eps0() && y < pair_.eps0())) return std::nullopt;
    const auto above = std::upper_bound(ls_.begin(), ls_.end(), y);
    double xa = 0, xb = 0;
    if (above == ls_.begin() || above == ls_.end()) {
      // Beyond the table: step outward, doubling, until the loss crosses y.
      const bool low = above == ls_.begin();
      const double edge = low ? xs_.front() : xs_.back();
      double step = xs_.back() - xs_.front();
      double x = edge;
      for (int i = 0;; ++i) {
        if (i == 200 || !std::isfinite(x)) return std::nullopt;
        const double next = low ? x - step : x + step;
        if (low ? pair_.approx_loss(next) <= y : pair_.approx_loss(next) > y) {
          xa = low ? next : x;
          xb = low ? x : next;
          break;
        }
        x = next;
        step *= 2;
      }
    } else {
      const auto i = static_cast<std::size_t>(above - ls_.begin());
      xa = xs_[i - 1];
      xb = xs_[i];
    }
    double fa = pair_.approx_loss(xa) - y, fb = pair_.approx_loss(xb) - y;
    if (!(fa <= 0 && fb > 0)) return std::nullopt;
    int side = 0;
    double x = xa;
    for (int i = 0; i < 100; ++i) {
      x = (xa * fb - xb * fa) / (fb - fa);
      if (!(x > xa && x < xb)) x = xa + (xb - xa) / 2;
      const double fx = pair_.approx_loss(x) - y;
      if (std::fabs(fx) < tolerance_ || !(std::nextafter(xa, xb) < xb)) break;
      if (fx <= 0) {
        xa = x, fa = fx;
        if (side == -1) fb /= 2;
        side = -1;
      } else {
        xb = x, fb = fx;
        if (side == 1) fa /= 2;
        side = 1;
      }
    }
    return x;
  }

 private:
  const ShiftedPair& pair_;
  double tolerance_;
  std::vector<double> xs_, ls_;
};

/// An edge of the partition: the loss there (enclosed) and P's and Q's tails.
struct Edge {
  Interval loss;
  Tail p, q;
};

}  // namespace

LaplacePlds laplace_sum_plds(const Rational& scale, const Rational& sensitivity, unsigned long n,
                             const PldLimits& limits) {
  if (scale <= 0) throw invalid_argument("scale", to_string(scale), "positive");
  if (sensitivity <= 0) throw invalid_argument("sensitivity", to_string(sensitivity), "positive");
  if (n < 1 || n > kMaxLaplaceSumClients)
    throw invalid_argument("n", std::to_string(n), "in [1, " + std::to_string(kMaxLaplaceSumClients) + "]");
  if (limits.max_cells < 16) throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  PrecisionScope precision(kBits);
  const Rational eps0 = sensitivity / scale;
  const ShiftedPair pair(n, eps0);
  const double e0 = pair.eps0();
  if (!(e0 > 0) || !std::isfinite(e0) || e0 > 1e6)
    throw invalid_argument("sensitivity", to_string(sensitivity), "at most 10^6 times the scale");

  // The grid: about max_cells points over the losses of P's outputs within t* of its centre,
  // t* where P's tail falls below the trim's (the rest goes to +∞ or to the lowest point).
  double t_star = std::sqrt(2.0 * static_cast<double>(n));
  const double log_tail = std::log(limits.tail) - 5;
  while (pair.law().approx_log_tail(t_star) > log_tail) t_star *= 2;
  const double from = e0 - t_star, to = e0 + t_star;
  const double lo = std::max(-e0, pair.approx_loss(from)), hi = std::min(e0, pair.approx_loss(to));
  const LossSpan grid = loss_span(lo, hi, e0 * 1e-12, limits.max_cells);
  const int grid_scale = grid.scale;
  const double h = grid.step();
  const std::int64_t offset = grid.offset, top = grid.top;

  // The edges, two about each crossing: the lower one's loss certified at most the grid point,
  // the upper one's at least; the sliver between them has its own loss range.
  const std::size_t table = 4 * static_cast<std::size_t>(top - offset + 1);
  const Crossings crossings(pair, from, to, table, h * 1e-9);
  const double spacing = (to - from) / static_cast<double>(table);
  std::vector<Edge> edges;
  edges.push_back({interval_from(Rational(-eps0)), Tail{false, interval_from(Rational(0))},
                   Tail{false, interval_from(Rational(0))}});
  std::optional<double> last;
  for (std::int64_t k = offset; k <= top; ++k) {
    const std::optional<double> x = crossings.at(static_cast<double>(k) * h);
    if (!x) continue;
    const Interval y = interval_from(grid_point(grid_scale, k));
    double xi = std::max(std::fabs(*x) * 0x1p-40, spacing * 0x1p-30);
    for (int attempt = 0; attempt < 5; ++attempt, xi *= 256) {
      const double below = *x - xi, above = *x + xi;
      if (last && !(below > *last)) break;
      const Rational x0 = to_rational(below), x1 = to_rational(above);
      const Interval l0 = pair.loss(x0), l1 = pair.loss(x1);
      if (!(upper_of(l0) <= lower_of(y) && lower_of(l1) >= upper_of(y))) continue;
      edges.push_back({l0, pair.tail(x0, true), pair.tail(x0, false)});
      edges.push_back({l1, pair.tail(x1, true), pair.tail(x1, false)});
      last = above;
      break;
    }
  }
  edges.push_back({interval_from(eps0), Tail{true, interval_from(Rational(0))},
                   Tail{true, interval_from(Rational(0))}});

  std::vector<LossPiece> pieces;
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const Edge &a = edges[i], &b = edges[i + 1];
    pieces.push_back({lower_of(a.loss), upper_of(b.loss), mass_between(a.p, b.p), mass_between(a.q, b.q)});
  }
  return continuous_plds(pieces, grid_scale, offset, top);
}

Accountant laplace_sum_accountant(const Rational& scale, const Rational& sensitivity, unsigned long n,
                                  const PldLimits& limits) {
  const LaplacePlds plds = laplace_sum_plds(scale, sensitivity, n, limits);
  return shift_pair_accountant(plds.upper, plds.lower, n, "Laplace(b)", limits);
}

}  // namespace corbin
