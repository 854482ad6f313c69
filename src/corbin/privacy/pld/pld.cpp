#include "corbin/privacy/pld/pld.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/mp.hpp"
#include "corbin/privacy/pld/fft.hpp"
#include "corbin/privacy/pld/loss_grid.hpp"

namespace corbin {
namespace {

using namespace directed;
constexpr double kInf = std::numeric_limits<double>::infinity();

Mp grid_point(std::int64_t i, int scale) {
  return Mp::grid_point(i, scale);
}
Mp rational_mp(const Rational& x, mpfr_rnd_t rnd) {
  return Mp::of(x, rnd);
}

double step(int scale) {
  return std::ldexp(1.0, scale);
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// e^(−r h) for a step r·h in [0, H): the split weight toward the upper point,
/// β = (1 − e^(−rh)) / (1 − e^(−H)), bounded above, and 1 − β bounded above.
struct SplitWeight {
  double to_upper, to_lower;
};
SplitWeight split_weight(const Mp& offset_in_cell, const Mp& cell) {
  Mp e, num_hi, num_lo, den_hi, den_lo, neg;
  mpfr_neg(neg.get(), offset_in_cell.get(), MPFR_RNDN);
  mpfr_exp(e.get(), neg.get(), MPFR_RNDD);
  mpfr_ui_sub(num_hi.get(), 1, e.get(), MPFR_RNDU);  // 1 − e^(−r) bounded above
  mpfr_exp(e.get(), neg.get(), MPFR_RNDU);
  mpfr_ui_sub(num_lo.get(), 1, e.get(), MPFR_RNDD);
  mpfr_neg(neg.get(), cell.get(), MPFR_RNDN);
  mpfr_exp(e.get(), neg.get(), MPFR_RNDU);
  mpfr_ui_sub(den_lo.get(), 1, e.get(), MPFR_RNDD);  // 1 − e^(−H) bounded below
  mpfr_exp(e.get(), neg.get(), MPFR_RNDD);
  mpfr_ui_sub(den_hi.get(), 1, e.get(), MPFR_RNDU);
  Mp beta_hi, beta_lo, rest;
  mpfr_div(beta_hi.get(), num_hi.get(), den_lo.get(), MPFR_RNDU);
  mpfr_div(beta_lo.get(), num_lo.get(), den_hi.get(), MPFR_RNDD);
  mpfr_ui_sub(rest.get(), 1, beta_lo.get(), MPFR_RNDU);
  return {std::min(1.0, beta_hi.up()), std::min(1.0, std::max(0.0, rest.up()))};
}

/// e^x for a grid step x = d·h, bounded above.
double exp_up(std::int64_t d, int scale) {
  const Mp x = grid_point(d, scale);
  Mp e;
  mpfr_exp(e.get(), x.get(), MPFR_RNDU);
  return e.up();
}

// ---- the arithmetic passes, every rounding outward (number/directed.hpp) ----

double sum_up(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s = add_up(s, x);
  return s;
}
double sum_down(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s = add_down(s, x);
  return s;
}

/// out = a ∗ b bounded above: round-to-nearest sums widened by SumWidening.
void convolve_up(const std::vector<double>& a, const std::vector<double>& b,
                 std::vector<double>& out) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double ai = a[i];
    if (ai == 0) continue;
    double* o = out.data() + i;
    for (std::size_t j = 0; j < b.size(); ++j) o[j] += ai * b[j];
  }
  // A cell no pair of positive masses reaches is exactly 0: no underflow allowance there (it put
  // mass above every loss of the product, and δ_upper never fell below about 1e-320).
  const auto reach = [](const std::vector<double>& v) {
    std::size_t first = 0, last = v.size();
    while (first < last && v[first] == 0) ++first;
    while (last > first && v[last - 1] == 0) --last;
    return std::pair{first, last};
  };
  const auto [a_first, a_last] = reach(a);
  const auto [b_first, b_last] = reach(b);
  const SumWidening widen(std::min(a.size(), b.size()), 2);
  for (std::size_t c = 0; c < out.size(); ++c)
    out[c] = a_first < a_last && b_first < b_last && c >= a_first + b_first && c + 2 <= a_last + b_last
                 ? widen.up(out[c])
                 : 0.0;
}

// ---- products by FFT (fft.hpp) past limits.fft_cells ----

/// Whether a ∗ b goes by FFT: the direct sum's pairs (a's positive cells times b's cells, the
/// loops of convolve_up and compose_pass) past fft_cells². Measured on 2 cores, the FFT
/// overtakes the direct sum near 1 200 cells a side for the pessimistic product and near 500 for
/// the optimistic one (whose direct pair costs four times as much); the default, 2 048, keeps
/// every product on the default grid direct, so that the documented and tested brackets stay
/// what they were (the optimistic FFT groups atoms differently: ε_lower moves by up to 2e-4,
/// both valid), and sends larger grids' products to the FFT. The direct sum is exact to a
/// relative 1e-12 in every cell, where the FFT's bound is absolute (fft.hpp).
bool by_fft(const std::vector<double>& a, const std::vector<double>& b, const PldLimits& limits) {
  if (limits.fft_cells == std::numeric_limits<std::size_t>::max()) return false;
  const auto positive =
      static_cast<double>(std::count_if(a.begin(), a.end(), [](double x) { return x > 0; }));
  const auto cells = static_cast<double>(limits.fft_cells);
  return positive * static_cast<double>(b.size()) > cells * cells;
}

/// Tails of a product whose upper bounds sum to at most this are not resolved further by the
/// FFT's tilts: far below what a trim moves (limits.tail / 2), so the trims cut where they would.
double negligible(const PldLimits& limits) {
  return limits.tail * 0x1p-20;
}

/// Pessimistic trim: a top tail of at most limits.tail/2 goes to +∞, a bottom tail of at most
/// limits.tail/2 joins the lowest point kept (both move mass up), and empty ends go.
void trim(UpperPld& a, const PldLimits& limits) {
  std::size_t top = a.mass.size();
  double moved = 0;
  while (top > 0 && add_up(moved, a.mass[top - 1]) <= limits.tail / 2)
    moved = add_up(moved, a.mass[top -= 1]);
  a.infinite = std::min(1.0, add_up(a.infinite, moved));
  std::size_t bottom = 0;
  double below = 0;
  while (bottom + 1 < top && add_up(below, a.mass[bottom]) <= limits.tail / 2)
    below = add_up(below, a.mass[bottom++]);
  if (top == 0) {
    a.mass.assign(1, 0.0);
    return;
  }
  a.mass[bottom] = add_up(a.mass[bottom], below);
  a.mass = std::vector<double>(a.mass.begin() + static_cast<std::ptrdiff_t>(bottom),
                               a.mass.begin() + static_cast<std::ptrdiff_t>(top));
  a.offset += static_cast<std::int64_t>(bottom);
}

/// Optimistic trim: atoms at either end with P-mass summing to at most limits.tail/2 are dropped.
void trim(LowerPld& a, const PldLimits& limits) {
  std::size_t top = a.p.size(), bottom = 0;
  double dropped = 0;
  while (top > 1 && dropped + a.p[top - 1] <= limits.tail / 2) dropped += a.p[top -= 1];
  dropped = 0;
  while (bottom + 1 < top && dropped + a.p[bottom] <= limits.tail / 2) dropped += a.p[bottom++];
  auto cut = [&](std::vector<double>& v) {
    v = std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(bottom),
                            v.begin() + static_cast<std::ptrdiff_t>(top));
  };
  cut(a.p);
  cut(a.t);
  cut(a.y);
  a.offset += static_cast<std::int64_t>(bottom);
}

/// f(r) for each atom's residue r = (offset + i) mod 2^shift: one per residue from a table when
/// there are fewer residues than atoms, else one per atom (a shift of 20 would otherwise cost a
/// million MPFR calls for 2048 atoms).
template <class T, class F>
std::vector<T> per_residue(std::int64_t offset, std::size_t atoms, int shift, F f) {
  const std::int64_t factor = std::int64_t(1) << shift;
  const auto residue = [&](std::size_t i) {
    const std::int64_t g = offset + static_cast<std::int64_t>(i);
    return g - floor_div(g, factor) * factor;
  };
  std::vector<T> out(atoms);
  if (static_cast<std::uint64_t>(factor) <= atoms) {
    std::vector<T> table(static_cast<std::size_t>(factor));
    for (std::int64_t r = 0; r < factor; ++r) table[static_cast<std::size_t>(r)] = f(r);
    for (std::size_t i = 0; i < atoms; ++i) out[i] = table[static_cast<std::size_t>(residue(i))];
  } else {
    for (std::size_t i = 0; i < atoms; ++i) out[i] = f(residue(i));
  }
  return out;
}

UpperPld coarsen_once(const UpperPld& a, int shift) {
  const std::int64_t factor = std::int64_t(1) << shift;
  // Every point is split onto the two coarse points around it (weights from split_weight).
  const Mp cell = grid_point(1, a.scale + shift);
  const std::vector<SplitWeight> w = per_residue<SplitWeight>(a.offset, a.mass.size(), shift, [&](std::int64_t r) {
    return r == 0 ? SplitWeight{} : split_weight(grid_point(r, a.scale), cell);
  });
  UpperPld out;
  out.scale = a.scale + shift;
  out.offset = floor_div(a.offset, factor);
  const std::int64_t last =
      floor_div(a.offset + static_cast<std::int64_t>(a.mass.size()) - 1, factor);
  out.mass.assign(static_cast<std::size_t>(last - out.offset + 2), 0.0);
  out.infinite = a.infinite;
  for (std::size_t i = 0; i < a.mass.size(); ++i) {
    if (a.mass[i] == 0) continue;
    const std::int64_t g = a.offset + static_cast<std::int64_t>(i);
    const std::int64_t coarse = floor_div(g, factor);
    const auto at = static_cast<std::size_t>(coarse - out.offset);
    if (g == coarse * factor) {
      out.mass[at] = add_up(out.mass[at], a.mass[i]);
      continue;
    }
    out.mass[at] = add_up(out.mass[at], mul_up(a.mass[i], w[i].to_lower));
    out.mass[at + 1] = add_up(out.mass[at + 1], mul_up(a.mass[i], w[i].to_upper));
  }
  return out;
}

void refresh_losses(LowerPld& a) {
  const double h = step(a.scale);
  a.y.resize(a.p.size());
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    const double ref = static_cast<double>(a.offset + static_cast<std::int64_t>(i)) * h;
    a.y[i] = (a.p[i] > 0 && a.t[i] > 0) ? ref + std::log(a.p[i] / a.t[i]) : ref;
  }
}

LowerPld coarsen_once(const LowerPld& a, int shift) {
  const std::int64_t factor = std::int64_t(1) << shift;
  // t is Q·e^(fine point); at the coarse point below it, e^(−r h) times that.
  const std::vector<double> factor_up =
      per_residue<double>(a.offset, a.p.size(), shift, [&](std::int64_t r) { return exp_up(-r, a.scale); });
  LowerPld out;
  out.scale = a.scale + shift;
  out.offset = floor_div(a.offset, factor);
  const std::int64_t last = floor_div(a.offset + static_cast<std::int64_t>(a.p.size()) - 1, factor);
  out.p.assign(static_cast<std::size_t>(last - out.offset + 1), 0.0);
  out.t.assign(out.p.size(), 0.0);
  out.infinite = a.infinite;
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    const auto at = static_cast<std::size_t>(floor_div(a.offset + static_cast<std::int64_t>(i), factor) - out.offset);
    out.p[at] = std::max(0.0, add_down(out.p[at], a.p[i]));  // a mass: never below 0
    out.t[at] = add_up(out.t[at], mul_up(a.t[i], factor_up[i]));
  }
  refresh_losses(out);
  return out;
}

/// The grid 2^shift times coarser, in passes of at most kCoarsestPass doublings (a pass's factor
/// 2^shift is an int64). Each pass is a valid coarsening, so their chain is one.
constexpr int kCoarsestPass = 60;
template <class Pld>
Pld coarsen(const Pld& a, int shift) {
  Pld out = a;
  for (; shift > 0; shift -= kCoarsestPass) out = coarsen_once(out, std::min(shift, kCoarsestPass));
  return out;
}

int shift_to_fit(std::size_t cells, const PldLimits& limits) {
  int shift = 0;
  while ((cells >> shift) + 2 > limits.max_cells) ++shift;
  return shift;
}

struct BaseAtom {
  double p_lo, p_hi, q_lo, q_hi;
};

/// The window's atoms, and the span of losses of those with P-mass above a negligible level.
std::vector<BaseAtom> atoms_of(const WindowPmf& p, const WindowPmf& q) {
  std::vector<BaseAtom> atoms;
  for (std::size_t i = 0; i < p.size(); ++i) atoms.push_back({p.lo[i], p.hi[i], q.lo[i], q.hi[i]});
  return atoms;
}

template <class Pld>
Pld squaring(const Pld& a, std::uint64_t k, const PldLimits& limits, std::vector<Pld>* squares = nullptr) {
  if (k < 1) throw invalid_argument("compositions", std::to_string(k), "at least 1");
  Pld base = a;
  bool have = false;
  Pld acc;
  while (true) {
    if (k & 1) {
      acc = have ? compose(acc, base, limits) : base;
      have = true;
    }
    k >>= 1;
    if (k == 0) break;
    base = compose(base, base, limits);
    if (squares && k > 1) squares->push_back(base);  // a^(2^i) with 2^i below the k asked
  }
  return acc;
}

}  // namespace

UpperPld upper_pld(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits) {
  if (disjoint) {
    UpperPld out;
    out.mass = {0.0};
    out.infinite = 1;
    return out;
  }
  const GridSplitter splitter(grid_for({{&p, &q}}, limits));
  UpperPld out = splitter.split(p, q, false);
  trim(out, limits);
  return out;
}

LowerPld lower_pld(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits) {
  LowerPld out;
  if (disjoint) {
    out.p = {0.0};
    out.t = {0.0};
    out.y = {0.0};
    out.infinite = 1;  // exactly: every output of P has Q = 0
    return out;
  }
  const std::vector<BaseAtom> atoms = atoms_of(p, q);
  const LossGrid span = grid_for({{&p, &q}}, limits);
  out.scale = span.scale;
  out.offset = span.offset;
  const std::int64_t top = span.top;
  const double h = step(out.scale);
  const auto cells = static_cast<std::size_t>(top - out.offset + 1);
  out.p.assign(cells, 0.0);
  out.t.assign(cells, 0.0);
  std::vector<double> scale_up(cells);  // e^(grid point), bounded above
  for (std::size_t c = 0; c < cells; ++c)
    scale_up[c] = exp_up(out.offset + static_cast<std::int64_t>(c), out.scale);
  struct Placed {
    std::size_t at;
    double p, q;
  };
  std::vector<Placed> placed;
  std::vector<double> infinite_parts;
  // Q's window leaves out at most q.tail, which may fall on any outcome, in the window or not: an
  // outcome with no Q-mass in the window is off Q's support for certain only where nothing is left
  // out. Otherwise its Q is at most the tail, and the left-out Q-mass of all outcomes together is
  // at most the tail: counted once, in the top cell below (δ_lower falls by at most e^ε·tail). A
  // binomial window cut at 10^-60 gave outcomes P > 0 = Q, so ε_lower(10^-100) = +∞ where the
  // configuration's ε is 7.2.
  for (const BaseAtom& a : atoms) {
    if (a.p_lo == 0) continue;  // nothing certain to keep: dropped
    if (a.q_hi == 0 && q.tail == 0) {  // Q = 0 here for certain
      infinite_parts.push_back(a.p_lo);
      continue;
    }
    if (a.q_hi == 0) {  // Q within the tail counted below: the largest loss the grid holds
      placed.push_back({static_cast<std::size_t>(top - out.offset), a.p_lo, 0.0});
      continue;
    }
    // Grouping only; +∞ where the ratio passes the doubles (Q's upper end subnormal), which the
    // top cell keeps (converting +∞ to an integer is undefined: it dropped such atoms, and at a
    // dropout of 10^-100000 a lower end of 709.8, the largest e^ε a double holds, fell to 0).
    const double cell = std::floor(std::log(a.p_lo / a.q_hi) / h);
    // Below the grid: dropped (its mass is negligible there). Above it: kept in the top cell, whose
    // terms p − e^ε q do not depend on the cell (t carries q e^(cell's point)); an atom whose Q
    // underflowed below the span's atoms still counts.
    if (cell < static_cast<double>(out.offset)) continue;
    const std::int64_t g = cell >= static_cast<double>(top) ? top : static_cast<std::int64_t>(cell);
    placed.push_back({static_cast<std::size_t>(g - out.offset), a.p_lo, a.q_hi});
  }
  for (const Placed& x : placed) {
    out.p[x.at] = std::max(0.0, add_down(out.p[x.at], x.p));  // a mass: never below 0
    out.t[x.at] = add_up(out.t[x.at], mul_up(x.q, scale_up[x.at]));
  }
  if (q.tail > 0) out.t.back() = add_up(out.t.back(), mul_up(q.tail, scale_up.back()));
  out.infinite = std::clamp(sum_down(infinite_parts), 0.0, 1.0);
  refresh_losses(out);
  trim(out, limits);
  return out;
}

UpperPld compose(const UpperPld& a0, const UpperPld& b0, const PldLimits& limits) {
  const int scale = std::max(a0.scale, b0.scale);
  const UpperPld a = coarsen(a0, scale - a0.scale), b = coarsen(b0, scale - b0.scale);
  UpperPld out;
  out.scale = scale;
  out.offset = a.offset + b.offset;
  if (by_fft(a.mass, b.mass, limits)) {
    // Every cell's upper bound on the exact product (fft.hpp), a valid pessimistic mass.
    out.mass = fft_convolution(a.mass, b.mass, negligible(limits), &a0 == &b0).upper;
  } else {
    out.mass.assign(a.mass.size() + b.mass.size() - 1, 0.0);
    convolve_up(a.mass, b.mass, out.mass);
  }
  // +∞ absorbs every pair with an infinite part.
  const double ta = sum_up(a.mass), tb = sum_up(b.mass);
  out.infinite =
      std::min(1.0, add_up(mul_up(a.infinite, add_up(tb, b.infinite)), mul_up(ta, b.infinite)));
  trim(out, limits);
  return coarsen(out, shift_to_fit(out.mass.size(), limits));
}

namespace {

/// Products of atoms, each grouped into the cell of its approximate loss within two cells of
/// the sum of its parts' grid points; t carries the exact grid offset as e^(D h), D in [−2, 2].
void compose_pass(const LowerPld& a, const LowerPld& b, const double* e_up, LowerPld& out) {
  const double inv_h = 1 / step(a.scale);
  const double base = static_cast<double>(out.offset);
  const auto last = static_cast<std::int64_t>(out.p.size()) - 1;
  // On a coarse grid (h > 354: long compositions) e^(D h) overflows for D > 0, and a product put
  // above its grid points' cell would get t = +∞ and count for nothing (the lower end fell to 0
  // at k = 10^9). Any grouping is valid, so such a product stays at its points' cell or below.
  std::int64_t above = 0;
  while (above < 2 && std::isfinite(e_up[above + 3])) ++above;
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    if (a.p[i] == 0) continue;  // p = 0 and kept apart: it can never contribute
    const double pa = a.p[i], ta = a.t[i], ya = a.y[i];
    for (std::size_t j = 0; j < b.p.size(); ++j) {
      const auto nominal =
          static_cast<std::int64_t>(i + j) + 2;  // cell of the two grid points' sum
      // In doubles first: a loss is ±∞ where p/t passed the doubles (a NaN sum goes low: any
      // cell of the clamp below is a valid grouping).
      double cell = std::floor((ya + b.y[j]) * inv_h - base);
      cell = cell >= -1e15 ? std::min(cell, 1e15) : -1e15;
      const std::int64_t c = std::clamp(static_cast<std::int64_t>(cell), std::max<std::int64_t>(nominal - 2, 0),
                                        std::min(nominal + above, last));
      const auto at = static_cast<std::size_t>(c);
      out.p[at] += pa * b.p[j];
      out.t[at] += ta * b.t[j] * e_up[c - nominal + 2];
    }
  }
  // At most 5·min(|a|, |b|) products land in one cell (c − i − j in [−2, 2] after clamping).
  const SumWidening widen_p(5 * std::min(a.p.size(), b.p.size()), 2),
      widen_t(5 * std::min(a.p.size(), b.p.size()), 3);
  for (std::size_t c = 0; c < out.p.size(); ++c) {
    out.p[c] = widen_p.down(out.p[c]);
    out.t[c] = widen_t.up(out.t[c]);
  }
}

/// An FFT groups a pair of atoms by its grid points alone, cell i + j, where compose_pass groups
/// it by the sum of its losses. So that a cell's atoms stay within two cells of its point, each
/// atom first moves to the point below its loss when that is the next one up (t then carries
/// e^h more, rounded up): its loss is then within a cell above its point, and a product's within
/// two. Any grouping is valid (a merge is a post-processing); this one only decides tightness.
void regroup(const LowerPld& a, double lift, std::vector<double>& p, std::vector<double>& t) {
  p.assign(a.p.size() + 1, 0.0);
  t.assign(p.size(), 0.0);
  const double h = step(a.scale);
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    if (a.p[i] <= 0) continue;  // p = 0: kept apart, it never contributes (as in compose_pass)
    // The loss above the cell's point; never moved where e^h overflows (a coarse grid: t would
    // be +∞, and the atom count for nothing).
    const bool next = std::isfinite(lift) && std::log(a.p[i] / a.t[i]) >= h;
    const std::size_t at = i + (next ? 1 : 0);
    const double moved = next ? mul_up(a.t[i], lift) : a.t[i];
    if (p[at] == 0) {
      p[at] = a.p[i];
      t[at] = moved;
    } else {  // two atoms on one point merge
      p[at] = std::max(0.0, add_down(p[at], a.p[i]));
      t[at] = add_up(t[at], moved);
    }
  }
}

/// The product of a and b by FFT (fft.hpp): each cell's P-mass bounded below, its t above.
LowerPld compose_by_fft(const LowerPld& a, const LowerPld& b, bool same, const PldLimits& limits) {
  const double lift = exp_up(1, a.scale);  // e^h bounded above
  std::vector<double> pa, ta, pb, tb;
  regroup(a, lift, pa, ta);
  if (!same) regroup(b, lift, pb, tb);
  LowerPld out;
  out.scale = a.scale;
  out.offset = a.offset + b.offset;
  out.p = fft_convolution(pa, same ? pa : pb, negligible(limits), same).lower;
  out.t = fft_convolution(ta, same ? ta : tb, negligible(limits), same).upper;
  return out;
}

}  // namespace

LowerPld compose(const LowerPld& a0, const LowerPld& b0, const PldLimits& limits) {
  const int scale = std::max(a0.scale, b0.scale);
  const LowerPld a = coarsen(a0, scale - a0.scale), b = coarsen(b0, scale - b0.scale);
  LowerPld out;
  if (by_fft(a.p, b.p, limits)) {
    out = compose_by_fft(a, b, &a0 == &b0, limits);
  } else {
    out.scale = scale;
    out.offset = a.offset + b.offset - 2;
    out.p.assign(a.p.size() + b.p.size() + 3, 0.0);
    out.t.assign(out.p.size(), 0.0);
    double e_up[5];
    for (int d = -2; d <= 2; ++d) e_up[d + 2] = exp_up(d, scale);
    compose_pass(a, b, e_up, out);
  }
  const double ta = sum_down(a.p), tb = sum_down(b.p);
  // Lower bounds of non-negative masses: a rounding below 0 is clamped (add_down(0, 0) < 0).
  out.infinite = std::clamp(
      add_down(mul_down(a.infinite, add_down(tb, b.infinite)), mul_down(ta, b.infinite)), 0.0, 1.0);
  refresh_losses(out);
  trim(out, limits);
  return coarsen(out, shift_to_fit(out.p.size(), limits));
}

namespace {

/// w and 1 − w, each rounded in `rnd`.
std::pair<double, double> weights(const Rational& w, mpfr_rnd_t rnd) {
  if (w < 0 || w > 1) throw invalid_argument("weight", to_string(w), "in [0, 1]");
  const auto get = [rnd](const Rational& x) { return mpfr_get_d(rational_mp(x, rnd).get(), rnd); };
  return {get(w), get(Rational(1) - w)};
}

/// The same distribution on the grid 2^shift times finer: every point of a grid is a point of
/// the finer one, so each mass stays where it is (exact, no pessimism).
template <class Pld>
Pld refined(const Pld& a, int shift) {
  if (shift == 0) return a;
  Pld out = a;
  out.scale = a.scale - shift;
  out.offset = a.offset * (std::int64_t(1) << shift);
  const auto spread = [shift](const std::vector<double>& v) {
    std::vector<double> w(v.empty() ? 0 : ((v.size() - 1) << shift) + 1, 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) w[i << shift] = v[i];
    return w;
  };
  if constexpr (std::is_same_v<Pld, UpperPld>) {
    out.mass = spread(a.mass);
  } else {
    out.p = spread(a.p);
    out.t = spread(a.t);
    out.y = spread(a.y);
  }
  return out;
}

/// The common grid of a mixture: the finer of the two where refining the coarser one needs at
/// most 8·max_cells cells (then the mixture loses nothing to the grid), else the coarser; and
/// coarser still until the two together span at most 8·max_cells cells: two laws of a few
/// outcomes each sit on a grid of step 2^-40, and 0.69 apart they asked for 7.6·10^11 cells
/// (std::bad_alloc).
template <class Pld>
int common_scale(const Pld& a, const Pld& b, std::size_t cells_a, std::size_t cells_b, const PldLimits& limits) {
  const int fine = std::min(a.scale, b.scale), coarse = std::max(a.scale, b.scale);
  const std::size_t cells = a.scale == coarse ? cells_a : cells_b;
  const int shift = coarse - fine;
  const bool fits = shift < 32 && (cells << shift) <= 8 * limits.max_cells;
  int scale = fits ? fine : coarse;
  const auto end = [](const Pld& x, std::size_t n) { return std::ldexp(static_cast<double>(x.offset) + n, x.scale); };
  const double low = std::min(end(a, 0), end(b, 0)), high = std::max(end(a, cells_a), end(b, cells_b));
  while (std::ldexp(high - low, -scale) > 8.0 * static_cast<double>(limits.max_cells)) ++scale;
  return scale;
}

/// `a` on the grid of `scale`, refined exactly or coarsened pessimistically (upper) or
/// optimistically (lower), as pld.hpp defines them.
template <class Pld>
Pld on_scale(const Pld& a, int scale) {
  return scale <= a.scale ? refined(a, a.scale - scale) : coarsen(a, scale - a.scale);
}

/// A mixture may keep twice the cells, so that its two parts, each on at most max_cells points
/// but not the same ones, mix without a coarsening (the next product coarsens as any does).
PldLimits mixture_limits(PldLimits limits) {
  limits.max_cells *= 2;
  return limits;
}

/// The first index of a window starting at `offset` inside one starting at `from`.
std::size_t at(std::int64_t offset, std::int64_t from) {
  return static_cast<std::size_t>(offset - from);
}

}  // namespace

UpperPld mixture(const UpperPld& a0, const UpperPld& b0, const Rational& w, const PldLimits& limits) {
  const auto [wa, wb] = weights(w, MPFR_RNDU);
  if (w == 1) return a0;
  if (w == 0) return b0;
  // On a common grid (the coarser refined exactly where that fits), coarsened after as needed.
  const int scale = common_scale(a0, b0, a0.mass.size(), b0.mass.size(), limits);
  const UpperPld a = on_scale(a0, scale), b = on_scale(b0, scale);
  UpperPld out;
  out.scale = scale;
  out.offset = std::min(a.offset, b.offset);
  const std::int64_t end = std::max(a.offset + static_cast<std::int64_t>(a.mass.size()),
                                    b.offset + static_cast<std::int64_t>(b.mass.size()));
  out.mass.assign(static_cast<std::size_t>(end - out.offset), 0.0);
  for (const auto& [x, weight] : {std::pair{&a, wa}, std::pair{&b, wb}})
    for (std::size_t i = 0; i < x->mass.size(); ++i) {
      double& m = out.mass[at(x->offset, out.offset) + i];
      m = add_up(m, mul_up(x->mass[i], weight));
    }
  out.infinite = std::min(1.0, add_up(mul_up(a.infinite, wa), mul_up(b.infinite, wb)));
  trim(out, limits);
  return coarsen(out, shift_to_fit(out.mass.size(), mixture_limits(limits)));
}

LowerPld mixture(const LowerPld& a0, const LowerPld& b0, const Rational& w, const PldLimits& limits) {
  const auto [pa, pb] = weights(w, MPFR_RNDD);  // P-masses: lower bounds
  const auto [ta, tb] = weights(w, MPFR_RNDU);  // Q-masses: upper bounds
  if (w == 1) return a0;
  if (w == 0) return b0;
  const int scale = common_scale(a0, b0, a0.p.size(), b0.p.size(), limits);
  const LowerPld a = on_scale(a0, scale), b = on_scale(b0, scale);
  LowerPld out;
  out.scale = scale;
  out.offset = std::min(a.offset, b.offset);
  const std::int64_t end = std::max(a.offset + static_cast<std::int64_t>(a.p.size()),
                                    b.offset + static_cast<std::int64_t>(b.p.size()));
  out.p.assign(static_cast<std::size_t>(end - out.offset), 0.0);
  out.t.assign(out.p.size(), 0.0);
  // Two atoms in one cell merge (a post-processing: the optimistic PLD only falls).
  for (const auto& [x, wp, wt] : {std::tuple{&a, pa, ta}, std::tuple{&b, pb, tb}})
    for (std::size_t i = 0; i < x->p.size(); ++i) {
      const std::size_t c = at(x->offset, out.offset) + i;
      out.p[c] = std::max(0.0, add_down(out.p[c], mul_down(x->p[i], wp)));
      out.t[c] = add_up(out.t[c], mul_up(x->t[i], wt));
    }
  out.infinite = std::clamp(add_down(mul_down(a.infinite, pa), mul_down(b.infinite, pb)), 0.0, 1.0);
  refresh_losses(out);
  trim(out, limits);
  return coarsen(out, shift_to_fit(out.p.size(), mixture_limits(limits)));
}

UpperPld power(const UpperPld& a, std::uint64_t k, const PldLimits& limits) {
  return squaring(a, k, limits);
}
UpperPld trimmed(UpperPld a, const PldLimits& limits) {
  trim(a, limits);
  return coarsen(a, shift_to_fit(a.mass.size(), limits));
}
LowerPld power(const LowerPld& a, std::uint64_t k, const PldLimits& limits) {
  return squaring(a, k, limits);
}
LowerPld power(const LowerPld& a, std::uint64_t k, const PldLimits& limits, std::vector<LowerPld>& shorter) {
  return squaring(a, k, limits, &shorter);
}

namespace {

/// e^(ε − y) for a grid point y = i·2^scale, bounded below (`up` false) or above, as a double:
/// the one MPFR exponential a walk over the grid starts (or restarts) from.
double exp_gap(const Mp& eps, std::int64_t i, int scale, bool up) {
  Mp x;
  mpfr_sub(x.get(), eps.get(), grid_point(i, scale).get(), up ? MPFR_RNDU : MPFR_RNDD);
  mpfr_exp(x.get(), x.get(), up ? MPFR_RNDU : MPFR_RNDD);
  return up ? x.up() : x.down();
}

/// Below this, a walk's product has lost its relative precision (subnormal) and restarts.
constexpr double kRestart = 0x1p-1000;

}  // namespace

double delta_upper(const UpperPld& a, const Rational& eps) {
  // δ = m_∞ + Σ_(y_i > ε) m_i (1 − e^(ε − y_i)). From the top point down, e^(ε − y_i) grows by
  // e^h a step: a lower bound times a lower bound of e^h stays a lower bound (and 1 minus it an
  // upper bound); the walk stops once e^(ε − y_i) >= 1 is certain (y_i <= ε, no more terms).
  const Mp e = rational_mp(eps, MPFR_RNDD);  // δ falls as ε grows: the smaller end is pessimistic
  Mp gh;
  mpfr_exp(gh.get(), grid_point(1, a.scale).get(), MPFR_RNDD);
  const double rise = gh.down();  // e^h bounded below
  double sum = a.infinite, gap = -1;
  for (std::size_t i = a.mass.size(); i-- > 0;) {
    const std::int64_t point = a.offset + static_cast<std::int64_t>(i);
    gap = gap < kRestart ? exp_gap(e, point, a.scale, false) : mul_down(gap, rise);
    if (gap >= 1) break;
    if (a.mass[i] > 0) sum = add_up(sum, mul_up(a.mass[i], sub_up(1.0, gap)));
  }
  return std::min(1.0, sum);
}

double delta_lower(const LowerPld& a, const Rational& eps) {
  // δ >= m_∞ + Σ (p_i − e^(ε − y_i) t_i)₊ with t_i = Q_i e^(y_i) bounded above: e^(ε − y_i) is
  // bounded above, walking from the top point down (times e^h rounded up each step).
  const Mp e = rational_mp(eps, MPFR_RNDU);
  Mp gh;
  mpfr_exp(gh.get(), grid_point(1, a.scale).get(), MPFR_RNDU);
  const double rise = gh.up();  // e^h bounded above
  double sum = a.infinite, gap = 0;
  for (std::size_t i = a.p.size(); i-- > 0;) {
    const std::int64_t point = a.offset + static_cast<std::int64_t>(i);
    gap = gap < kRestart ? exp_gap(e, point, a.scale, true) : mul_up(gap, rise);
    if (a.p[i] <= 0) continue;
    if (a.t[i] <= 0) {
      sum = add_down(sum, a.p[i]);
      continue;
    }
    const double term = sub_down(a.p[i], mul_up(gap, a.t[i]));
    if (term > 0) sum = add_down(sum, term);
  }
  return std::clamp(sum, 0.0, 1.0);
}

namespace {

/// Bisection on ε over doubles: `below(ε)` is true for small ε and false from some point on;
/// returns the last ε found true (`want_true`) or the first found false.
template <class F>
double bisect(double lo, double hi, F below, bool want_true) {
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(hi)); ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (below(mid) ? lo : hi) = mid;
  }
  return want_true ? lo : hi;
}

}  // namespace

double eps_upper(const UpperPld& a, const Rational& delta) {
  if (to_rational(a.infinite) > delta) return kInf;
  auto too_big = [&](double eps) { return to_rational(delta_upper(a, to_rational(eps))) > delta; };
  if (!too_big(0)) return 0;
  double hi = std::max(
      1.0, std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(a.mass.size())),
                      a.scale));
  while (too_big(hi)) hi *= 2;  // δ(hi) = the mass at +∞ <= δ once hi passes every loss
  return bisect(0, hi, too_big, false);
}

double eps_lower(const LowerPld& a, const Rational& delta) {
  if (to_rational(a.infinite) > delta) return kInf;
  auto above = [&](double eps) { return to_rational(delta_lower(a, to_rational(eps))) > delta; };
  if (!above(0)) return 0;
  double hi = std::max(
      1.0, std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(a.p.size()) + 8),
                      a.scale));
  while (above(hi)) hi *= 2;
  return bisect(0, hi, above, true);
}

}  // namespace corbin
