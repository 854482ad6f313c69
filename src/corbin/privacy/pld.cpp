#include "corbin/privacy/pld.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"

namespace corbin {
namespace {

using namespace directed;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// An MPFR number with directed operations, for the few values per grid point that need exp/log.
class Mp {
 public:
  Mp() { mpfr_init2(v_, 128); mpfr_set_zero(v_, 1); }
  explicit Mp(double x) { mpfr_init2(v_, 128); mpfr_set_d(v_, x, MPFR_RNDN); }  // exact
  Mp(const Mp& o) { mpfr_init2(v_, 128); mpfr_set(v_, o.v_, MPFR_RNDN); }
  Mp& operator=(const Mp& o) { mpfr_set(v_, o.v_, MPFR_RNDN); return *this; }
  ~Mp() { mpfr_clear(v_); }
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  double down() const { return mpfr_get_d(v_, MPFR_RNDD); }
  double up() const { return mpfr_get_d(v_, MPFR_RNDU); }

 private:
  mpfr_t v_;
};

/// (i·h) exactly, as an MPFR number (h a power of two, i below 2^63).
Mp grid_point(std::int64_t i, int scale) {
  Mp out;
  mpfr_set_si(out.get(), static_cast<long>(i), MPFR_RNDN);
  mpfr_mul_2si(out.get(), out.get(), scale, MPFR_RNDN);
  return out;
}

Mp rational_mp(const Rational& x, mpfr_rnd_t rnd) {
  Mp out;
  mpfr_set_q(out.get(), x.backend().data(), rnd);
  return out;
}

double step(int scale) { return std::ldexp(1.0, scale); }

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
void convolve_up(const std::vector<double>& a, const std::vector<double>& b, std::vector<double>& out) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double ai = a[i];
    if (ai == 0) continue;
    double* o = out.data() + i;
    for (std::size_t j = 0; j < b.size(); ++j) o[j] += ai * b[j];
  }
  const SumWidening widen(std::min(a.size(), b.size()), 2);
  for (double& x : out) x = widen.up(x);
}

/// Moves mass up so that the tail function is at most 1 (a true law's is), from the top down.
void cap_at_one(UpperPld& a) {
  a.infinite = std::min(1.0, a.infinite);
  double above = a.infinite;  // lower bound on the exact sum of the stored masses above
  for (std::size_t k = a.mass.size(); k-- > 0;) {
    if (add_down(above, a.mass[k]) > 1) {
      a.mass[k] = std::max(0.0, sub_up(1.0, above));
      std::fill(a.mass.begin(), a.mass.begin() + static_cast<std::ptrdiff_t>(k), 0.0);
      return;
    }
    above = add_down(above, a.mass[k]);
  }
}

/// Pessimistic trim: a top tail of at most limits.tail/2 goes to +∞, a bottom tail of at most
/// limits.tail/2 joins the lowest point kept (both move mass up), and empty ends go.
void trim(UpperPld& a, const PldLimits& limits) {
  std::size_t top = a.mass.size();
  double moved = 0;
  while (top > 0 && add_up(moved, a.mass[top - 1]) <= limits.tail / 2) moved = add_up(moved, a.mass[top -= 1]);
  a.infinite = std::min(1.0, add_up(a.infinite, moved));
  std::size_t bottom = 0;
  double below = 0;
  while (bottom + 1 < top && add_up(below, a.mass[bottom]) <= limits.tail / 2) below = add_up(below, a.mass[bottom++]);
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

/// Split every point onto the grid 2^shift times coarser (weights from split_weight).
void coarsen_pass(const UpperPld& a, int shift, const std::vector<SplitWeight>& w,
                                    UpperPld& out) {
  const std::int64_t factor = std::int64_t(1) << shift;
  for (std::size_t i = 0; i < a.mass.size(); ++i) {
    if (a.mass[i] == 0) continue;
    const std::int64_t g = a.offset + static_cast<std::int64_t>(i);
    const std::int64_t coarse = floor_div(g, factor), r = g - coarse * factor;
    const auto at = static_cast<std::size_t>(coarse - out.offset);
    if (r == 0) {
      out.mass[at] = add_up(out.mass[at], a.mass[i]);
      continue;
    }
    out.mass[at] = add_up(out.mass[at], mul_up(a.mass[i], w[static_cast<std::size_t>(r)].to_lower));
    out.mass[at + 1] = add_up(out.mass[at + 1], mul_up(a.mass[i], w[static_cast<std::size_t>(r)].to_upper));
  }
}

UpperPld coarsen(const UpperPld& a, int shift) {
  if (shift <= 0) return a;
  if (shift > 24) throw invalid_argument("shift", std::to_string(shift), "at most 24 (grid coarsening)");
  const std::int64_t factor = std::int64_t(1) << shift;
  std::vector<SplitWeight> w(static_cast<std::size_t>(factor));
  const Mp cell = grid_point(1, a.scale + shift);
  for (std::int64_t r = 1; r < factor; ++r) w[static_cast<std::size_t>(r)] = split_weight(grid_point(r, a.scale), cell);
  UpperPld out;
  out.scale = a.scale + shift;
  out.offset = floor_div(a.offset, factor);
  const std::int64_t last = floor_div(a.offset + static_cast<std::int64_t>(a.mass.size()) - 1, factor);
  out.mass.assign(static_cast<std::size_t>(last - out.offset + 2), 0.0);
  out.infinite = a.infinite;
  coarsen_pass(a, shift, w, out);
  return out;
}

void merge_pass(const LowerPld& a, int shift, const std::vector<double>& factor_up,
                                  LowerPld& out) {
  const std::int64_t factor = std::int64_t(1) << shift;
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    const std::int64_t g = a.offset + static_cast<std::int64_t>(i);
    const std::int64_t coarse = floor_div(g, factor), r = g - coarse * factor;
    const auto at = static_cast<std::size_t>(coarse - out.offset);
    out.p[at] = add_down(out.p[at], a.p[i]);
    out.t[at] = add_up(out.t[at], mul_up(a.t[i], factor_up[static_cast<std::size_t>(r)]));
  }
}

void refresh_losses(LowerPld& a) {
  const double h = step(a.scale);
  a.y.resize(a.p.size());
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    const double ref = static_cast<double>(a.offset + static_cast<std::int64_t>(i)) * h;
    a.y[i] = (a.p[i] > 0 && a.t[i] > 0) ? ref + std::log(a.p[i] / a.t[i]) : ref;
  }
}

LowerPld coarsen(const LowerPld& a, int shift) {
  if (shift <= 0) return a;
  if (shift > 24) throw invalid_argument("shift", std::to_string(shift), "at most 24 (grid coarsening)");
  const std::int64_t factor = std::int64_t(1) << shift;
  // t is Q·e^(fine point); at the coarse point below it, e^(−r h) times that.
  std::vector<double> factor_up(static_cast<std::size_t>(factor));
  for (std::int64_t r = 0; r < factor; ++r) factor_up[static_cast<std::size_t>(r)] = exp_up(-r, a.scale);
  LowerPld out;
  out.scale = a.scale + shift;
  out.offset = floor_div(a.offset, factor);
  const std::int64_t last = floor_div(a.offset + static_cast<std::int64_t>(a.p.size()) - 1, factor);
  out.p.assign(static_cast<std::size_t>(last - out.offset + 1), 0.0);
  out.t.assign(out.p.size(), 0.0);
  out.infinite = a.infinite;
  merge_pass(a, shift, factor_up, out);
  refresh_losses(out);
  return out;
}

int shift_to_fit(std::size_t cells, const PldLimits& limits) {
  int shift = 0;
  while ((cells >> shift) + 2 > limits.max_cells) ++shift;
  return shift;
}

/// Grid step for a base distribution whose losses span [lo, hi].
int base_scale(double lo, double hi, const PldLimits& limits) {
  const double span = std::max(hi - lo, 1e-300);
  int scale = static_cast<int>(std::ceil(std::log2(span / static_cast<double>(limits.max_cells - 4))));
  return std::clamp(scale, -80, 60);
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

std::pair<double, double> loss_span(const std::vector<BaseAtom>& atoms) {
  constexpr double kNegligible = 1e-40;  // atoms lighter than this may fall outside the grid
  double lo = kInf, hi = -kInf;
  for (const BaseAtom& a : atoms) {
    if (a.p_hi < kNegligible || a.q_lo <= 0) continue;
    const double y = std::log(a.p_hi / a.q_lo);
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
  if (lo > hi) lo = hi = 0;
  return {lo, hi};
}

template <class Pld>
Pld squaring(const Pld& a, std::uint64_t k, const PldLimits& limits) {
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
  }
  return acc;
}

/// The grid both discretisations of one base distribution use: step 2^scale, from `offset` to
/// `top`, one point of margin beyond its lowest and highest losses.
struct GridSpan {
  int scale;
  std::int64_t offset, top;
};

GridSpan grid_span(const std::vector<BaseAtom>& atoms, const PldLimits& limits) {
  const auto [lo, hi] = loss_span(atoms);
  GridSpan g{};
  g.scale = base_scale(lo, hi, limits);
  const double h = step(g.scale);
  g.offset = static_cast<std::int64_t>(std::floor(lo / h)) - 1;
  g.top = static_cast<std::int64_t>(std::ceil(hi / h)) + 1;
  return g;
}

}  // namespace

UpperPld upper_pld(const WindowPmf& p, const WindowPmf& q, bool disjoint, const PldLimits& limits) {
  UpperPld out;
  if (disjoint) {
    out.mass = {0.0};
    out.infinite = 1;
    return out;
  }
  const std::vector<BaseAtom> atoms = atoms_of(p, q);
  const GridSpan span = grid_span(atoms, limits);
  out.scale = span.scale;
  out.offset = span.offset;
  const std::int64_t top = span.top;
  out.mass.assign(static_cast<std::size_t>(top - out.offset + 1), 0.0);
  // Each atom's loss bounded above in MPFR, then split onto its cell's two points.
  struct Placed {
    std::size_t at;
    double mass, to_lower, to_upper;
  };
  std::vector<Placed> placed;
  double to_infinity = p.tail;  // the P-mass outside the window, at +∞
  std::vector<double> infinite_parts;
  const Mp cell = grid_point(1, out.scale);
  for (const BaseAtom& a : atoms) {
    if (a.p_hi == 0) continue;
    if (a.q_lo == 0) {
      infinite_parts.push_back(a.p_hi);
      continue;
    }
    Mp ratio, y;
    mpfr_div(ratio.get(), Mp(a.p_hi).get(), Mp(a.q_lo).get(), MPFR_RNDU);
    mpfr_log(y.get(), ratio.get(), MPFR_RNDU);
    Mp scaled;
    mpfr_mul_2si(scaled.get(), y.get(), -out.scale, MPFR_RNDN);  // exact
    mpfr_floor(scaled.get(), scaled.get());
    const std::int64_t g = mpfr_get_si(scaled.get(), MPFR_RNDN);
    if (g > top - 1) {
      infinite_parts.push_back(a.p_hi);
      continue;
    }
    if (g < out.offset) {  // below the grid: moved up to its lowest point
      placed.push_back({0, a.p_hi, 1.0, 0.0});
      continue;
    }
    Mp within;
    mpfr_sub(within.get(), y.get(), grid_point(g, out.scale).get(), MPFR_RNDU);
    const SplitWeight w = split_weight(within, cell);
    placed.push_back({static_cast<std::size_t>(g - out.offset), a.p_hi, w.to_lower, w.to_upper});
  }
  for (const Placed& x : placed) {
    out.mass[x.at] = add_up(out.mass[x.at], mul_up(x.mass, x.to_lower));
    out.mass[x.at + 1] = add_up(out.mass[x.at + 1], mul_up(x.mass, x.to_upper));
  }
  for (double x : infinite_parts) to_infinity = add_up(to_infinity, x);
  out.infinite = std::min(1.0, to_infinity);
  cap_at_one(out);
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
  const GridSpan span = grid_span(atoms, limits);
  out.scale = span.scale;
  out.offset = span.offset;
  const std::int64_t top = span.top;
  const double h = step(out.scale);
  const auto cells = static_cast<std::size_t>(top - out.offset + 1);
  out.p.assign(cells, 0.0);
  out.t.assign(cells, 0.0);
  std::vector<double> scale_up(cells);  // e^(grid point), bounded above
  for (std::size_t c = 0; c < cells; ++c) scale_up[c] = exp_up(out.offset + static_cast<std::int64_t>(c), out.scale);
  struct Placed {
    std::size_t at;
    double p, q;
  };
  std::vector<Placed> placed;
  std::vector<double> infinite_parts;
  for (const BaseAtom& a : atoms) {
    if (a.p_lo == 0) continue;        // nothing certain to keep: dropped
    if (a.q_hi == 0) {                // Q = 0 here for certain
      infinite_parts.push_back(a.p_lo);
      continue;
    }
    const double y = std::log(a.p_lo / a.q_hi);  // grouping only
    const auto g = static_cast<std::int64_t>(std::floor(y / h));
    if (g < out.offset || g > top) continue;  // a negligible atom outside the grid: dropped
    placed.push_back({static_cast<std::size_t>(g - out.offset), a.p_lo, a.q_hi});
  }
  for (const Placed& x : placed) {
    out.p[x.at] = add_down(out.p[x.at], x.p);
    out.t[x.at] = add_up(out.t[x.at], mul_up(x.q, scale_up[x.at]));
  }
  out.infinite = std::min(1.0, sum_down(infinite_parts));
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
  out.mass.assign(a.mass.size() + b.mass.size() - 1, 0.0);
  convolve_up(a.mass, b.mass, out.mass);
  // +∞ absorbs every pair with an infinite part.
  const double ta = sum_up(a.mass), tb = sum_up(b.mass);
  out.infinite = std::min(1.0, add_up(mul_up(a.infinite, add_up(tb, b.infinite)), mul_up(ta, b.infinite)));
  cap_at_one(out);
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
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    if (a.p[i] == 0) continue;  // p = 0 and kept apart: it can never contribute
    const double pa = a.p[i], ta = a.t[i], ya = a.y[i];
    for (std::size_t j = 0; j < b.p.size(); ++j) {
      const auto nominal = static_cast<std::int64_t>(i + j) + 2;  // cell of the two grid points' sum
      auto c = static_cast<std::int64_t>(std::floor((ya + b.y[j]) * inv_h - base));
      c = std::clamp(c, std::max<std::int64_t>(nominal - 2, 0), std::min(nominal + 2, last));
      const auto at = static_cast<std::size_t>(c);
      out.p[at] += pa * b.p[j];
      out.t[at] += ta * b.t[j] * e_up[c - nominal + 2];
    }
  }
  // At most 5·min(|a|, |b|) products land in one cell (c − i − j in [−2, 2] after clamping).
  const SumWidening widen_p(5 * std::min(a.p.size(), b.p.size()), 2), widen_t(5 * std::min(a.p.size(), b.p.size()), 3);
  for (std::size_t c = 0; c < out.p.size(); ++c) {
    out.p[c] = widen_p.down(out.p[c]);
    out.t[c] = widen_t.up(out.t[c]);
  }
}

}  // namespace

LowerPld compose(const LowerPld& a0, const LowerPld& b0, const PldLimits& limits) {
  const int scale = std::max(a0.scale, b0.scale);
  const LowerPld a = coarsen(a0, scale - a0.scale), b = coarsen(b0, scale - b0.scale);
  LowerPld out;
  out.scale = scale;
  out.offset = a.offset + b.offset - 2;
  out.p.assign(a.p.size() + b.p.size() + 3, 0.0);
  out.t.assign(out.p.size(), 0.0);
  double e_up[5];
  for (int d = -2; d <= 2; ++d) e_up[d + 2] = exp_up(d, scale);
  compose_pass(a, b, e_up, out);
  const double ta = sum_down(a.p), tb = sum_down(b.p);
  out.infinite = std::min(1.0, add_down(mul_down(a.infinite, add_down(tb, b.infinite)), mul_down(ta, b.infinite)));
  refresh_losses(out);
  trim(out, limits);
  return coarsen(out, shift_to_fit(out.p.size(), limits));
}

UpperPld power(const UpperPld& a, std::uint64_t k, const PldLimits& limits) { return squaring(a, k, limits); }
LowerPld power(const LowerPld& a, std::uint64_t k, const PldLimits& limits) { return squaring(a, k, limits); }

double delta_upper(const UpperPld& a, const Rational& eps) {
  const Mp e = rational_mp(eps, MPFR_RNDD);  // δ falls as ε grows: the smaller end is pessimistic
  Mp sum(a.infinite), x, term;
  for (std::size_t i = 0; i < a.mass.size(); ++i) {
    if (a.mass[i] == 0) continue;
    const Mp y = grid_point(a.offset + static_cast<std::int64_t>(i), a.scale);
    if (mpfr_cmp(y.get(), e.get()) <= 0) continue;
    mpfr_sub(x.get(), e.get(), y.get(), MPFR_RNDD);
    mpfr_exp(x.get(), x.get(), MPFR_RNDD);
    mpfr_ui_sub(term.get(), 1, x.get(), MPFR_RNDU);
    mpfr_mul_d(term.get(), term.get(), a.mass[i], MPFR_RNDU);
    mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDU);
  }
  return std::min(1.0, sum.up());
}

double delta_lower(const LowerPld& a, const Rational& eps) {
  const Mp e = rational_mp(eps, MPFR_RNDU);
  Mp sum(a.infinite), x, term;
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    if (a.p[i] == 0) continue;
    const Mp ref = grid_point(a.offset + static_cast<std::int64_t>(i), a.scale);
    mpfr_sub(x.get(), e.get(), ref.get(), MPFR_RNDU);
    mpfr_exp(x.get(), x.get(), MPFR_RNDU);
    mpfr_mul_d(x.get(), x.get(), a.t[i], MPFR_RNDU);  // e^ε q, bounded above
    mpfr_d_sub(term.get(), a.p[i], x.get(), MPFR_RNDD);
    if (mpfr_sgn(term.get()) > 0) mpfr_add(sum.get(), sum.get(), term.get(), MPFR_RNDD);
  }
  return sum.down();
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
  double hi = std::max(1.0, std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(a.mass.size())), a.scale));
  while (too_big(hi)) hi *= 2;  // δ(hi) = the mass at +∞ <= δ once hi passes every loss
  return bisect(0, hi, too_big, false);
}

double eps_lower(const LowerPld& a, const Rational& delta) {
  if (to_rational(a.infinite) > delta) return kInf;
  auto above = [&](double eps) { return to_rational(delta_lower(a, to_rational(eps))) > delta; };
  if (!above(0)) return 0;
  double hi = std::max(1.0, std::ldexp(static_cast<double>(a.offset + static_cast<std::int64_t>(a.p.size()) + 8), a.scale));
  while (above(hi)) hi *= 2;
  return bisect(0, hi, above, true);
}

}  // namespace corbin
