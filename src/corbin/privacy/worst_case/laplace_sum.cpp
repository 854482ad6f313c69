#include "corbin/privacy/worst_case/laplace_sum.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/worst_case/counted_remove.hpp"
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
    // h'(y) = Σ_j (j + 1) c_(j+1) y^j.
    for (unsigned long j = 1; j < n; ++j) d_.push_back(Interval(c_[j] * interval_from(Rational(BigInt(j)))));
  }

  /// ln g_n(y) for y >= 0 (g_n is even).
  Interval log_density(const Interval& y) const { return Interval(log(horner(c_, y)) - y); }
  /// ψ(y) = −(ln g_n)'(y) = 1 − h'(y)/h(y), h = Σ c_j y^j, for y >= 0 (ψ is odd and rises:
  /// g_n is log-concave). One client's law has a kink at 0: there both one-sided slopes, [−1, 1].
  /// ln g_n(y) and ψ(y) together (one evaluation of h), for y >= 0.
  std::pair<Interval, Interval> log_density_and_slope(const Interval& y) const {
    const Interval h = horner(c_, y);
    const Interval density(log(h) - y);
    if (c_.size() == 1)
      return {density, lower_of(y) > 0 ? interval_from(Rational(1)) : interval_hull(Real(-1), Real(1))};
    return {density, Interval(interval_from(Rational(1)) - Interval(horner(d_, y) / h))};
  }
  /// P(Y > t) for t >= 0.
  Interval upper_tail(const Interval& t) const { return Interval(exp(Interval(-t)) * horner(a_, t)); }
  /// The tail at z as continuous.hpp keeps it (Y is even: P(Y <= z) = P(Y > −z)); z about 0,
  /// P(Y > z) between the two tails at its farther end.
  Tail tail_at(const Interval& z) const {
    if (lower_of(z) >= 0) return Tail{true, upper_tail(z)};
    if (upper_of(z) <= 0) return Tail{false, upper_tail(Interval(-z))};
    const Interval t(upper_tail(interval_hull(Real(0), std::max<Real>(Real(-lower_of(z)), upper_of(z)))));
    return Tail{true, interval_hull(lower_of(t), upper_of(Interval(interval_from(Rational(1)) - t)))};
  }

  double approx_log_density(double y) const {
    y = std::fabs(y);
    return log_sum(log_c_, y) - y;
  }
  double approx_log_tail(double t) const { return log_sum(log_a_, t) - t; }
  unsigned long clients() const { return c_.size(); }

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

  std::vector<Interval> c_, a_, d_;
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
    return law_.tail_at(interval_from(p ? Rational(x - eps0_) : x));
  }

 private:
  LaplaceSum law_;
  Rational eps0_;
  double eps0_double_;
};

/// A root of f in [xa, xb], f(xa) = fa <= 0 < fb = f(xb) (or the other way round), by regula
/// falsi (Illinois), to |f| < tolerance or adjacent doubles.
template <class F>
double illinois(const F& f, double xa, double xb, double fa, double fb, double tolerance) {
  int side = 0;
  double x = xa;
  for (int i = 0; i < 100; ++i) {
    x = (xa * fb - xb * fa) / (fb - fa);
    if (!(x > xa && x < xb)) x = xa + (xb - xa) / 2;
    const double fx = f(x);
    if (std::fabs(fx) < tolerance || !(std::nextafter(xa, xb) < xb)) break;
    if ((fx <= 0) == (fa <= 0)) {
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
    const auto f = [&](double x) { return pair_.approx_loss(x) - y; };
    const double fa = f(xa), fb = f(xb);
    if (!(fa <= 0 && fb > 0)) return std::nullopt;
    return illinois(f, xa, xb, fa, fb, tolerance_);
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

PiecesOnGrid laplace_shift_pieces(const Rational& scale, const Rational& sensitivity, unsigned long n,
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
  return {std::move(pieces), grid};
}

LaplacePlds laplace_sum_plds(const Rational& scale, const Rational& sensitivity, unsigned long n,
                             const PldLimits& limits) {
  PrecisionScope precision(kBits);
  return continuous_plds(laplace_shift_pieces(scale, sensitivity, n, limits));
}

Accountant laplace_sum_accountant(const Rational& scale, const Rational& sensitivity, unsigned long n,
                                  const PldLimits& limits) {
  const LaplacePlds plds = laplace_sum_plds(scale, sensitivity, n, limits);
  return shift_pair_accountant(plds.upper, plds.lower, n, "Laplace(b)", limits);
}

namespace {

/// The remove-one pair in units of b (the header): P = g_n(· − a), Q = g_(n−1).
class RemovePair {
 public:
  RemovePair(unsigned long n, const Rational& a) : p_(n), q_(n - 1), a_(a), a_double_(to_double(a)) {}

  double a() const { return a_double_; }
  const LaplaceSum& p_law() const { return p_; }
  const LaplaceSum& q_law() const { return q_; }

  /// At y: ℓ(y) = ln g_n(y − a) − ln g_(n−1)(y), and ψ_n(y − a) and ψ_(n−1)(y), the slopes
  /// ℓ' = ψ_(n−1)(y) − ψ_n(y − a) is made of, all enclosed.
  struct At {
    Interval loss, slope_p, slope_q;
  };
  At at(const Rational& y) const {
    const Rational d = y - a_;
    auto [log_p, slope_p] = p_.log_density_and_slope(interval_from(abs(d)));
    auto [log_q, slope_q] = q_.log_density_and_slope(interval_from(abs(y)));
    return {Interval(log_p - log_q), d >= 0 ? slope_p : Interval(-slope_p), y >= 0 ? slope_q : Interval(-slope_q)};
  }
  double approx_loss(double y) const { return p_.approx_log_density(y - a_double_) - q_.approx_log_density(y); }
  Tail tail(const Rational& y, bool p) const { return (p ? p_ : q_).tail_at(interval_from(p ? Rational(y - a_) : y)); }

 private:
  LaplaceSum p_, q_;
  Rational a_;
  double a_double_;
};

/// How often a piece about the loss's least value is halved.
constexpr int kHalvings = 24;

/// An edge of the partition: its output (none: −∞ or +∞), the loss and both slopes there, both
/// laws' tails.
struct RemoveEdge {
  std::optional<Rational> y;
  Interval loss, slope_p, slope_q;
  Tail p, q;
};

/// t with P(Y > t) below e^(log_tail), Y ~ g_k.
double bulk(const LaplaceSum& law, double log_tail) {
  double t = std::sqrt(2.0 * static_cast<double>(law.clients()));
  while (law.approx_log_tail(t) > log_tail) t *= 2;
  return t;
}

/// The PLDs of P against Q (forward) or of Q against P (loss −ℓ under Q).
PiecesOnGrid remove_pieces(const RemovePair& pair, const Real& floor, bool forward, const PldLimits& limits) {
  const double sign = forward ? 1.0 : -1.0;
  // The outputs where the order's first law has its mass (beyond them: the outer pieces).
  const double t = bulk(forward ? pair.p_law() : pair.q_law(), std::log(limits.tail) - 5);
  const double centre = forward ? pair.a() : 0.0;
  const double from = centre - t, to = centre + t;
  const std::size_t table = 4 * std::max<std::size_t>(limits.max_cells, 16);
  std::vector<double> xs(table), ls(table);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < table; ++i) {
    xs[i] = from + (to - from) * static_cast<double>(i) / static_cast<double>(table - 1);
    ls[i] = sign * pair.approx_loss(xs[i]);
    lo = std::min(lo, ls[i]);
    hi = std::max(hi, ls[i]);
  }
  // Between two points of the table ℓ strays from their losses by at most the spacing (|ℓ'| <= 2:
  // |ψ| <= 1), so a kink or a valley between them (n = 2's at y = 0) stays on the grid.
  const double spacing = (to - from) / static_cast<double>(table - 1);
  const LossSpan grid = loss_span(lo - spacing, hi + spacing, 1e-12, limits.max_cells);
  const double h = grid.step();

  const auto edge = [&](const Rational& y) {
    RemovePair::At at = pair.at(y);
    return RemoveEdge{y, std::move(at.loss), std::move(at.slope_p), std::move(at.slope_q), pair.tail(y, true),
                      pair.tail(y, false)};
  };
  // Two edges about each crossing of a grid point, within the stretch of the table it lies in:
  // the near one's loss certified on its side of the level, the far one's on the other, so the
  // pieces between crossings stay within a cell (only a cell's worth: every piece's losses are
  // enclosed below whatever the edges are).
  std::vector<RemoveEdge> edges;
  edges.push_back({std::nullopt, Interval(), Interval(), Interval(), Tail{false, interval_from(Rational(0))},
                   Tail{false, interval_from(Rational(0))}});
  edges.push_back(edge(to_rational(from)));
  double last = from;
  for (std::size_t i = 0; i + 1 < table; ++i) {
    const double l0 = ls[i], l1 = ls[i + 1];
    const bool rising = l1 > l0;
    std::int64_t k0 = static_cast<std::int64_t>(std::floor(std::min(l0, l1) / h)) + 1;
    std::int64_t k1 = static_cast<std::int64_t>(std::floor(std::max(l0, l1) / h));
    if (l0 == l1) continue;
    for (std::int64_t j = 0; j <= k1 - k0; ++j) {
      const std::int64_t k = rising ? k0 + j : k1 - j;  // in order of the crossings' outputs
      const double level = static_cast<double>(k) * h;
      const auto f = [&](double x) { return sign * pair.approx_loss(x) - level; };
      const double x = illinois(f, xs[i], xs[i + 1], l0 - level, l1 - level, h * 1e-9);
      const Interval y(interval_from(grid_point(grid.scale, k)));  // the level, in this order's losses
      double xi = std::max(std::fabs(x) * 0x1p-40, (to - from) * 0x1p-50);
      for (int attempt = 0; attempt < 5; ++attempt, xi *= 256) {
        const double below = x - xi, above = x + xi;
        if (!(below > last) || !(above < to)) break;
        const Rational y0 = to_rational(below), y1 = to_rational(above);
        RemoveEdge e0 = edge(y0), e1 = edge(y1);
        // In this order's losses: at most the level before the crossing, at least it after.
        const Interval s0(forward ? e0.loss : Interval(-e0.loss)), s1(forward ? e1.loss : Interval(-e1.loss));
        const bool ok = rising ? (upper_of(s0) <= lower_of(y) && lower_of(s1) >= upper_of(y))
                               : (lower_of(s0) >= upper_of(y) && upper_of(s1) <= lower_of(y));
        if (!ok) continue;
        edges.push_back(std::move(e0));
        edges.push_back(std::move(e1));
        last = above;
        break;
      }
    }
  }
  edges.push_back(edge(to_rational(to)));
  edges.push_back({std::nullopt, Interval(), Interval(), Interval(), Tail{true, interval_from(Rational(0))},
                   Tail{true, interval_from(Rational(0))}});

  std::vector<LossPiece> pieces;
  const Real infinity(std::numeric_limits<double>::infinity());
  const auto add = [&](const RemoveEdge& a, const RemoveEdge& b, const Real& l_lo, const Real& l_hi) {
    const Interval mp = mass_between(a.p, b.p), mq = mass_between(a.q, b.q);
    if (forward)
      pieces.push_back({l_lo, l_hi, mp, mq});
    else
      pieces.push_back({Real(-l_hi), Real(-l_lo), mq, mp});
  };
  // A piece between two finite edges; where its slope's range holds 0 (about the loss's least
  // value), halved until it does not or for kHalvings steps, whose last pieces take the mean
  // value's bounds from both ends.
  const std::function<void(const RemoveEdge&, const RemoveEdge&, int)> inner = [&](const RemoveEdge& a,
                                                                                  const RemoveEdge& b, int depth) {
    // ℓ' on [a, b] lies in [ψ_Q(a) − ψ_P(b − a), ψ_Q(b) − ψ_P(a − a)] (both ψ rise).
    const Interval d_lo(a.slope_q - b.slope_p), d_hi(b.slope_q - a.slope_p);
    if (lower_of(d_lo) >= 0) return add(a, b, std::max<Real>(lower_of(a.loss), floor), upper_of(b.loss));
    if (upper_of(d_hi) <= 0) return add(a, b, std::max<Real>(lower_of(b.loss), floor), upper_of(a.loss));
    if (depth < kHalvings) {
      const RemoveEdge middle = edge(to_rational(to_double((*a.y + *b.y) / 2)));
      if (*middle.y > *a.y && *middle.y < *b.y) {
        inner(a, middle, depth + 1);
        inner(middle, b, depth + 1);
        return;
      }
    }
    const Interval length(interval_from(Rational(*b.y - *a.y)));
    const Interval dl(interval_hull(lower_of(d_lo), lower_of(d_lo))), dh(interval_hull(upper_of(d_hi), upper_of(d_hi)));
    const Real l_lo = std::max<Real>(lower_of(Interval(a.loss + dl * length)), lower_of(Interval(b.loss - dh * length)));
    const Real l_hi = std::min<Real>(upper_of(Interval(a.loss + dh * length)), upper_of(Interval(b.loss - dl * length)));
    add(a, b, std::max<Real>(l_lo, floor), l_hi);
  };
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const RemoveEdge &a = edges[i], &b = edges[i + 1];
    if (a.y && b.y)
      inner(a, b, 0);
    else
      add(a, b, floor, infinity);  // an outer piece: ℓ >= −a − ln 2 (the header)
  }
  return {std::move(pieces), grid};
}

}  // namespace

RemovePieces laplace_remove_pieces(const Rational& scale, const Rational& shift, unsigned long n,
                                   const PldLimits& limits) {
  if (scale <= 0) throw invalid_argument("scale", to_string(scale), "positive");
  if (shift <= 0) throw invalid_argument("shift", to_string(shift), "positive");
  if (n < 2 || n > kMaxLaplaceSumClients)
    throw invalid_argument("n", std::to_string(n),
                           "in [2, " + std::to_string(kMaxLaplaceSumClients) + "] (client 1 and another)");
  if (limits.max_cells < 16) throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  const Rational a = shift / scale;
  if (!(to_double(a) <= kMaxLaplaceRemoveShift))
    throw invalid_argument("shift", to_string(shift), "at most " + std::to_string(int(kMaxLaplaceRemoveShift)) + " b");
  PrecisionScope precision(kBits);
  const RemovePair pair(n, a);
  const Real floor = lower_of(Interval(Interval(-interval_from(a)) - log(interval_from(Rational(2)))));
  return both_orders([&](bool forward) { return remove_pieces(pair, floor, forward, limits); }, limits);
}

RemovePlds laplace_remove_plds(const Rational& scale, const Rational& shift, unsigned long n,
                               const PldLimits& limits) {
  return remove_plds(laplace_remove_pieces(scale, shift, n, limits));
}

Accountant laplace_remove_accountant(const Rational& scale, const Rational& shift, unsigned long n,
                                     const std::string& input, const PldLimits& limits) {
  return remove_pair_accountant(laplace_remove_plds(scale, shift, n, limits), n, input, "Laplace(b)", limits);
}

Accountant laplace_remove_dropout_accountant(const Rational& scale, const Rational& center, const Rational& radius,
                                             unsigned long n, const Rational& p, std::uint64_t m,
                                             const PldLimits& limits) {
  if (scale <= 0) throw invalid_argument("scale", to_string(scale), "positive");
  PrecisionScope precision(kBits);  // held by the threads (laplace_remove_plds's own)
  // k clients' noise in units of b, each law built once, by whichever worker first needs it.
  std::mutex guard;
  std::map<unsigned long, std::unique_ptr<const LaplaceSum>> laws;
  const auto law = [&](unsigned long k) -> const LaplaceSum& {
    const std::lock_guard<std::mutex> lock(guard);
    auto& slot = laws[k];
    if (!slot) slot = std::make_unique<const LaplaceSum>(k);
    return *slot;
  };
  // k clients' noise over `summed` coordinates added: the sum of k·summed Laplace(1) laws.
  const auto noise = [&](std::uint64_t summed) {
    return NoiseLaw{[&, summed](unsigned long k, const Interval& z) { return law(k * summed).tail_at(z); },
                    [&, summed](unsigned long k) { return bulk(law(k * summed), std::log(1e-32)); },
                    // A tail is k terms at 64 bits, a normal tail about 16 terms' worth.
                    [summed](unsigned long k) { return 1 + static_cast<double>(k * summed) / 16; }};
  };
  // One coordinate; with m >= 2, also all m added (every input the same in each: inputs m·x).
  const Interval unit(interval_from(Rational(1)) / interval_from(scale));
  std::vector<BinnedView> views{{unit, 1, noise(1)}};
  if (m > 1) views.push_back({Interval(unit * interval_from(Rational(BigInt(m)))), m, noise(m)});
  const Accountant round = noise_remove_dropout_accountant(
      [&](unsigned long k) { return laplace_remove_pieces(scale, abs(center) + radius, k, limits); },
      m == 1 ? std::function<PiecesOnGrid(unsigned long)>(
                   [&](unsigned long k) { return laplace_shift_pieces(scale, 2 * radius, k, limits); })
             : nullptr,
      views, center, radius, n, p, m, "Laplace(b)", limits);
  if (m == 1) return round;
  // With m >= 2 coordinates the shift pair of the round is no one shift: the count told from the
  // replace-one pair of k clients' noise composed over the m coordinates (counted_remove.hpp;
  // the shift 2r in each coordinate the worst, as laplace_sum.hpp proves), met with the round's.
  std::map<unsigned long, UpperPair> replaced;
  for (unsigned long k : counted_populations(n, p)) {
    const UpperPld pair = power(laplace_sum_plds(scale, 2 * radius, k, limits).upper, m, limits);
    replaced.emplace(k, UpperPair{pair, pair});  // the Laplace sum is even: both orders alike
  }
  return round.tighter(counted_remove_accountant(replaced, n, p, m, limits));
}

}  // namespace corbin
