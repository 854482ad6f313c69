#include "corbin/privacy/pld/continuous.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"

namespace corbin {
namespace {

/// x / 2^scale, exactly (a power of 2; x finite).
Real over_step(const Real& x, int scale) {
  Real y = x;
  mpfr_mul_2si(y.backend().data(), x.backend().data(), -scale, MPFR_RNDN);
  return y;
}
std::int64_t index_of(const Real& integral) { return static_cast<std::int64_t>(integral.convert_to<double>()); }

void add_up_at(UpperPld& upper, std::int64_t k, double mass) {
  double& m = upper.mass[static_cast<std::size_t>(k - upper.offset)];
  m = m == 0 ? mass : std::min(1.0, directed::add_up(m, mass));
}

}  // namespace

Rational grid_point(int scale, std::int64_t k) {
  const Rational step = scale >= 0 ? Rational(BigInt(1) << scale) : Rational(1, BigInt(1) << -scale);
  return step * k;
}

double LossSpan::step() const { return std::ldexp(1.0, scale); }

LossSpan loss_span(double lo, double hi, double min_span, std::size_t max_cells) {
  const double span = std::max(hi - lo, min_span);
  LossSpan out{};
  out.scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(max_cells - 2))));
  out.offset = static_cast<std::int64_t>(std::floor(lo / out.step()));
  out.top = static_cast<std::int64_t>(std::ceil(hi / out.step()));
  return out;
}

Interval mass_between(const Tail& a, const Tail& b) {
  if (a.upper) return Interval(a.value - b.value);   // both in the upper tail
  if (!b.upper) return Interval(b.value - a.value);  // both in the lower part
  return Interval(1 - a.value - b.value);            // across the middle
}

void add_split(UpperPld& upper, std::int64_t a, std::int64_t b, const Interval& p, const Interval& q,
               const Interval& e_a, const Interval& e_b) {
  const double whole = to_double_up(upper_of(p));
  if (a == b) {
    add_up_at(upper, a, std::max(0.0, whole));
    return;
  }
  const Interval gap(e_a - e_b);
  const double at_low = std::min(whole, to_double_up(upper_of(Interval(Interval(q - p * e_b) / gap))));
  const double at_high = std::min(whole, to_double_up(upper_of(Interval(Interval(p * e_a - q) / gap))));
  add_up_at(upper, a, std::max(0.0, at_low));
  add_up_at(upper, b, std::max(0.0, at_high));
}

ContinuousPlds continuous_plds(const std::vector<LossPiece>& pieces, int scale, std::int64_t offset,
                               std::int64_t top) {
  const auto cells = static_cast<std::size_t>(top - offset + 1);
  const double h = std::ldexp(1.0, scale);
  ContinuousPlds out;
  UpperPld& upper = out.upper;
  upper.scale = scale;
  upper.offset = offset;
  upper.mass.assign(cells, 0.0);
  LowerPld& lower = out.lower;
  lower.scale = scale;
  lower.offset = offset;
  lower.p.assign(cells, 0.0);
  lower.t.assign(cells, 0.0);
  lower.y.assign(cells, 0.0);
  for (std::size_t i = 0; i < cells; ++i) lower.y[i] = (static_cast<double>(offset) + static_cast<double>(i) + 0.5) * h;
  std::vector<Interval> e_minus(cells), e_plus(cells);  // e^(−y_k), e^(y_k)
  for (std::size_t i = 0; i < cells; ++i) {
    const Interval y = interval_from(grid_point(scale, offset + static_cast<std::int64_t>(i)));
    e_minus[i] = exp(Interval(-y));
    e_plus[i] = exp(y);
  }
  const auto at = [&](std::int64_t k) { return static_cast<std::size_t>(k - offset); };
  for (const LossPiece& piece : pieces) {
    if (!(upper_of(piece.p) > 0)) continue;
    // Pessimistic.
    // The grid indices around its losses (a piece from −∞ starts at the lowest point).
    const std::int64_t low = isinf(piece.lo) ? offset : std::max(offset, index_of(floor(over_step(piece.lo, scale))));
    const std::int64_t b = isinf(piece.hi) ? top + 1 : std::max(offset, index_of(ceil(over_step(piece.hi, scale))));
    if (b > top)
      upper.infinite = std::min(1.0, directed::add_up(upper.infinite, to_double_up(upper_of(piece.p))));
    else
      add_split(upper, std::min(low, b), b, piece.p, piece.q, e_minus[at(std::min(low, b))], e_minus[at(b)]);
    // Optimistic.
    const std::int64_t c = std::min(low, top);
    const std::size_t i = at(c);
    lower.p[i] = directed::add_down(lower.p[i], std::max(0.0, to_double_down(lower_of(piece.p))));
    lower.p[i] = std::max(0.0, lower.p[i]);
    lower.t[i] = directed::add_up(lower.t[i], to_double_up(upper_of(Interval(piece.q * e_plus[i]))));
  }
  return out;
}

ContinuousPlds continuous_plds(const PiecesOnGrid& cut) {
  return continuous_plds(cut.pieces, cut.grid.scale, cut.grid.offset, cut.grid.top);
}

MappedPieces weighted_mixture(const PiecesOnGrid& cut, const Interval& x, const Interval& y, const Interval& z,
                              bool forward) {
  if (!(lower_of(x) >= 0) || !(lower_of(y) >= 0) || !(lower_of(z) > 0) || !(upper_of(Interval(x + y)) > 0))
    throw invalid_argument("weights", "(" + to_decimal(midpoint_of(x), 6) + ", " + to_decimal(midpoint_of(y), 6) +
                                          ", " + to_decimal(midpoint_of(z), 6) + ")",
                           "x, y >= 0, x + y > 0, z > 0");
  const Real infinity(std::numeric_limits<double>::infinity());
  const bool no_second = upper_of(y) == 0, no_first = upper_of(x) == 0;
  // ℓ ↦ ln((x·e^ℓ + y)/z) at a loss's end, enclosed, then its `up` end taken; backward the image
  // is negated, so its lower end comes from the upper end of the map.
  const auto f = [&](const Real& loss, bool up) -> Real {
    const bool end_up = up == forward;
    Real v;
    if (isinf(loss) && loss > 0)
      v = no_first ? (end_up ? upper_of(log(Interval(y / z))) : lower_of(log(Interval(y / z)))) : infinity;
    else if (isinf(loss) || (no_first && !no_second))
      v = no_second ? Real(-infinity) : (end_up ? upper_of(log(Interval(y / z))) : lower_of(log(Interval(y / z))));
    else {
      const Interval image(log(Interval(Interval(x * exp(interval_hull(loss, loss)) + y) / z)));
      v = end_up ? upper_of(image) : lower_of(image);
    }
    return forward ? v : Real(-v);
  };
  MappedPieces out;
  out.pieces.reserve(cut.pieces.size());
  for (const LossPiece& piece : cut.pieces) {
    const Interval mixed(x * piece.p + y * piece.q), second(z * piece.q);
    if (forward)
      out.pieces.push_back({f(piece.lo, false), f(piece.hi, true), mixed, second});
    else
      out.pieces.push_back({f(piece.hi, false), f(piece.lo, true), second, mixed});
  }
  const double h = cut.grid.step();
  const double lo = f(Real(static_cast<double>(forward ? cut.grid.offset : cut.grid.top) * h), false).convert_to<double>();
  const double hi = f(Real(static_cast<double>(forward ? cut.grid.top : cut.grid.offset) * h), true).convert_to<double>();
  out.lo = lo;
  out.hi = hi;
  return out;
}

PiecesOnGrid mixed_with_second(const PiecesOnGrid& cut, const Rational& w, bool forward, std::size_t max_cells) {
  if (w <= 0 || w > 1) throw invalid_argument("w", to_string(w), "in (0, 1]");
  // Backward the pieces are those of (Q, P): turned round to (P, Q)'s, whose backward mixture
  // (Q, w·P + (1 − w)·Q) they give.
  PiecesOnGrid turned;
  const PiecesOnGrid* from = &cut;
  if (!forward) {
    turned.grid = LossSpan{cut.grid.scale, -cut.grid.top, -cut.grid.offset};
    turned.pieces.reserve(cut.pieces.size());
    for (const LossPiece& piece : cut.pieces) turned.pieces.push_back({Real(-piece.hi), Real(-piece.lo), piece.q, piece.p});
    from = &turned;
  }
  const Interval one(interval_from(Rational(1)));
  const MappedPieces mapped = weighted_mixture(*from, interval_from(w), interval_from(Rational(1 - w)), one, forward);
  PiecesOnGrid out;
  out.pieces = mapped.pieces;
  out.grid = loss_span(std::isfinite(mapped.lo) ? mapped.lo : mapped.hi - 1, mapped.hi, 1e-12, max_cells);
  return out;
}

}  // namespace corbin
