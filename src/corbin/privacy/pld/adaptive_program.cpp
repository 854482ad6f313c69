#include "corbin/privacy/pld/adaptive_program.hpp"

#include <mpfr.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <exception>
#include <limits>
#include <thread>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/number/mp.hpp"
#include "corbin/privacy/pld/envelope.hpp"
#include "corbin/privacy/pld/loss_grid.hpp"
#include "corbin/privacy/pld/threads.hpp"

namespace corbin {
namespace {

using namespace directed;
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Atoms lighter than this decide neither the windows nor the grid's span (they still count:
/// the split moves one outside the span up, or to +∞).
constexpr double kNegligible = 1e-40;
/// The grid's step: at least 2^kFinest, at most a quarter of the largest member's standard
/// deviation (and 2^kCoarsest), and refined at most kRefinements times past that while the work
/// allows (the upper bound's error is second order in the step, the lower bound's merge spread
/// first order in it times √k); the span of member losses within kMaxSpanPoints points (each an
/// MPFR exponential).
constexpr int kFinest = -30, kCoarsest = -2, kRefinements = 6;
constexpr double kMaxSpanPoints = double(1 << 20);

/// A member's statistics under P (mid-point masses; they place the windows, nothing else).
struct Spread {
  double mean = 0, variance = 0, low = 0, high = 0;  ///< mean, variance, range of finite losses
  std::size_t atoms = 0;                             ///< atoms in that range
};

Spread spread_of(const ChoiceMember& m) {
  Spread s;
  if (m.disjoint) return s;
  double mass = 0, first = 0, second = 0;
  bool any = false;
  for (std::size_t i = 0; i < m.p->size(); ++i) {
    const double p = (m.p->lo[i] + m.p->hi[i]) / 2, q = (m.q->lo[i] + m.q->hi[i]) / 2;
    if (p <= 0 || q <= 0) continue;
    const double y = std::log(p / q);
    if (!std::isfinite(y)) continue;
    mass += p;
    first += p * y;
    second += p * y * y;
    if (m.p->hi[i] >= kNegligible) {
      s.low = any ? std::min(s.low, y) : y;
      s.high = any ? std::max(s.high, y) : y;
      any = true;
      ++s.atoms;
    }
  }
  if (mass > 0) {
    s.mean = first / mass;
    s.variance = std::max(0.0, second / mass - s.mean * s.mean);
  }
  return s;
}

/// The span of losses the members' atoms have (as grid_for: ln(p_hi/q_lo), atoms of P-mass above
/// kNegligible), or [0, 0].
std::pair<double, double> loss_span(const std::vector<ChoiceMember>& members) {
  double lo = kInf, hi = -kInf;
  for (const ChoiceMember& m : members) {
    if (m.disjoint) continue;
    for (std::size_t i = 0; i < m.p->size(); ++i) {
      if (m.p->hi[i] < kNegligible || m.q->lo[i] <= 0) continue;
      const double y = std::log(m.p->hi[i] / m.q->lo[i]);
      if (!std::isfinite(y)) continue;
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  }
  if (lo > hi) return {0, 0};
  return {lo, hi};
}

/// A member, or a cluster of members bounded together, on the program's grid: split atoms
/// (offset in grid steps, P-mass bounded above) and mass at +∞, whose profile is at least each
/// member's at every e^ε; its group, and the attained member the lower bound's strategy plays for
/// it (kNone: none).
struct Kernel {
  std::vector<std::int64_t> offset;
  std::vector<double> weight;
  double infinite = 0;
  std::size_t menu = 0, group = 0;
  std::size_t representative = kNone;
  std::size_t input = kNone;  ///< the representative's client-1 input (kNone: none attained)
  static constexpr std::size_t kNone = ~std::size_t(0);
};

/// A step's window of grid indices [lo, hi].
struct Window {
  std::int64_t lo = 0, hi = 0;
  std::size_t size() const { return static_cast<std::size_t>(hi - lo + 1); }
};

/// One use's strategy over a window: runs of grid indices, each with the member played there.
struct Runs {
  std::vector<std::int64_t> start;  ///< ascending; the first is the window's lo
  std::vector<std::uint32_t> member;
};

/// e^x for x = d·2^scale, bounded above or below.
double exp_grid(std::int64_t d, int scale, bool up) {
  const Mp x = Mp::grid_point(d, scale);
  Mp e;
  mpfr_exp(e.get(), x.get(), up ? MPFR_RNDU : MPFR_RNDD);
  return up ? e.up() : e.down();
}

/// Upper bounds on the chord weights at a loss ℓ = point·h + r, r in [0, h): the weight of the
/// point above, β = (1 − e^(−r))/(1 − e^(−h)), and of the point below, 1 − β.
std::pair<double, double> chord_weights(const Mp& r, int scale) {
  Mp neg, e, num_hi, den_lo, num_lo, den_hi, b;
  mpfr_neg(neg.get(), r.get(), MPFR_RNDN);
  mpfr_exp(e.get(), neg.get(), MPFR_RNDD);
  mpfr_ui_sub(num_hi.get(), 1, e.get(), MPFR_RNDU);
  mpfr_exp(e.get(), neg.get(), MPFR_RNDU);
  mpfr_ui_sub(num_lo.get(), 1, e.get(), MPFR_RNDD);
  const Mp minus_h = Mp::grid_point(-1, scale);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDU);
  mpfr_ui_sub(den_lo.get(), 1, e.get(), MPFR_RNDD);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDD);
  mpfr_ui_sub(den_hi.get(), 1, e.get(), MPFR_RNDU);
  mpfr_div(b.get(), num_hi.get(), den_lo.get(), MPFR_RNDU);
  const double above = std::clamp(b.up(), 0.0, 1.0);
  mpfr_div(b.get(), num_lo.get(), den_hi.get(), MPFR_RNDD);
  mpfr_ui_sub(b.get(), 1, b.get(), MPFR_RNDU);
  const double below = std::clamp(b.up(), 0.0, 1.0);
  return {above, below};
}

/// A menu of members (ProgramSegment::menu) as the program reads it.
struct Menu {
  std::size_t groups = 0;
  /// The strategies' slots: one per group, and one more (index `groups`) playing any group's
  /// members where the adversary picks the group.
  std::size_t slots = 0;
  bool chosen = false;
  /// Where the group is drawn each round: each group's chance, bounded above and below; empty
  /// otherwise.
  std::vector<double> weight_up, weight_down;
  /// Its kernels, and where the group is drawn the same in order of client 1's input.
  std::vector<std::size_t> kernels, by_input;
  bool drawn() const { return !weight_up.empty(); }
};

/// One segment of the run (ProgramSegment) as the program walks it.
struct Stretch {
  std::uint64_t start = 0, uses = 0;
  std::uint64_t round = 1;  ///< at least 1 (an unknown round, 0, is `round_known` false)
  bool round_known = true;
  std::size_t menu = 0;
  bool first_of_round(std::uint64_t t) const { return (t - start) % round == 0; }
};

class Program {
 public:
  Program(const std::vector<ChoiceMember>& members, std::uint64_t uses, const ProgramQuery& query,
          const std::vector<ProgramSegment>& segments, const ProgramLimits& limits, const PldLimits& pld_limits)
      : members_(members), k_(uses), query_(query), limits_(limits), pld_limits_(pld_limits) {
    std::uint64_t start = 0;
    std::vector<bool> described;  // a menu's groups, from the first segment naming it
    for (const ProgramSegment& s : segments) {
      Stretch x;
      x.start = start;
      x.uses = s.uses;
      x.round = std::max<std::uint64_t>(s.round, 1);
      x.round_known = s.round != 0;
      x.menu = s.menu;
      start += s.uses;
      segs_.push_back(x);
      if (menus_.size() <= s.menu) {
        menus_.resize(s.menu + 1);
        described.resize(s.menu + 1, false);
      }
      if (described[s.menu]) continue;  // the same wherever named (adaptive_worst_case checks)
      described[s.menu] = true;
      Menu& m = menus_[s.menu];
      m.chosen = s.groups_chosen;
      for (const Rational& w : s.group_weights) {
        const Interval i = interval_from(w);
        m.weight_up.push_back(std::min(1.0, to_double_up(upper_of(i))));
        m.weight_down.push_back(std::max(0.0, to_double_down(lower_of(i))));
      }
    }
    for (const ChoiceMember& m : members_) menus_[m.menu].groups = std::max(menus_[m.menu].groups, m.group + 1);
    for (Menu& m : menus_) m.slots = m.groups + (m.chosen ? 1 : 0);
  }

  ProgramAnswer solve();

 private:
  bool plan_grid();
  LossGrid grid_at(int scale) const;
  /// Every member split onto the grid, each kernel's lightest ends moved up (trimmed).
  std::vector<UpperPld> splits(const GridSplitter& splitter) const;
  struct Pruned {
    std::vector<bool> kept, slack;
  };
  /// The members whose split another kept one's dominates at every e^ε (up to `slack_` added to
  /// that one's mass at +∞): dropped.
  Pruned prune(const GridSplitter& splitter, const std::vector<UpperPld>& split) const;
  void build_kernels();
  void backward();
  double value0(std::int64_t i) const;
  double bound_at(const Mp& minus_eps) const;
  std::int64_t answer(ProgramAnswer& out);
  ProgramAnswer::Strategy forward(std::size_t group, std::int64_t target) const;
  /// The segment use t (0-based) is in.
  std::size_t segment_at(std::uint64_t t) const {
    const auto after = std::upper_bound(segs_.begin() + 1, segs_.end(), t,
                                        [](std::uint64_t u, const Stretch& x) { return u < x.start; });
    return static_cast<std::size_t>(after - segs_.begin()) - 1;
  }
  /// Lanes of the value function on a menu: one per group where it is drawn, else one.
  std::size_t lanes_of(const Menu& x) const { return x.drawn() ? x.groups : 1; }

  const std::vector<ChoiceMember>& members_;
  std::uint64_t k_;
  ProgramQuery query_;
  ProgramLimits limits_;
  PldLimits pld_limits_;
  std::vector<Stretch> segs_;
  std::vector<Menu> menus_;

  int scale_ = 0;
  double h_ = 1;
  std::vector<Window> window_;  ///< [t]: the grid indices kept after t uses (t = 0..k)
  std::vector<Kernel> kernel_;
  double kernels_ = kInf;  ///< kernels per group: +∞, every member its own
  double tau_ = 0;         ///< what the windows and the kernels' trimmed tails may cost δ, in all
  double slack_ = 0;       ///< a dominating kernel's added mass at +∞ (prune)
  std::vector<bool> kept_;  ///< the members the grid's work is estimated for
  std::int64_t amin_ = 0, amax_ = 0;  ///< the kernels' offsets
  std::vector<std::vector<Runs>> policy_;  ///< [t][slot of t's menu]
  /// Each group's best kernel of the input being closed, where the group is drawn (backward's
  /// scratch, one slice per thread).
  std::vector<std::vector<std::uint32_t>> best_arg_;
  std::vector<double> u0_;                 ///< U_0 on window_[0]
  double work_ = 0;
  std::size_t cells_ = 0;
};

bool Program::plan_grid() {
  // Where the loss can be (a Bernstein tail of τ under any strategy) and where V is not negligible
  // (ℓ + the remaining uses' loss above 0 with probability over τ): the windows keep both.
  double mu_lo = kInf, mu_hi = -kInf, var = 0, dev = 0;
  std::vector<Spread> spreads;
  for (const ChoiceMember& m : members_) {
    const Spread s = spread_of(m);
    mu_lo = std::min(mu_lo, s.mean);
    mu_hi = std::max(mu_hi, s.mean);
    var = std::max(var, s.variance);
    dev = std::max({dev, s.high - s.mean, s.mean - s.low});
    spreads.push_back(s);
  }
  const double delta_scale =
      query_.by_delta ? to_double(query_.at) : std::max(query_.delta_hint, 1e-30);
  tau_ = std::max(1e-300, std::min(1e-10, delta_scale * 1e-9));
  const double log_tau = -std::log(tau_);
  const auto reach = [&](double uses) {
    const double a = dev * log_tau / 3;
    return a + std::sqrt(a * a + 2 * uses * var * log_tau);
  };
  const double a_end = query_.by_delta ? -query_.eps_high : -to_double(query_.at);
  const double b_end = query_.by_delta ? -query_.eps_low : a_end;
  const double cap = log_tau + 2;  // above: V >= 1 − e^(−ℓ) > 1 − τ, so 1 costs less than τ
  std::vector<double> lo(k_ + 1), hi(k_ + 1);
  for (std::uint64_t t = 0; t <= k_; ++t) {
    const double ft = static_cast<double>(t), rest = static_cast<double>(k_ - t);
    lo[t] = std::max(a_end + ft * mu_lo - reach(ft), t == k_ ? 0.0 : -rest * mu_hi - reach(rest));
    hi[t] = std::min(b_end + ft * mu_hi + reach(ft), cap);
    if (t == 0) {  // the answer is read at every ε of the bracket
      lo[t] = std::min(lo[t], a_end);
      hi[t] = std::max(hi[t], b_end);
    }
    if (hi[t] < lo[t]) hi[t] = lo[t];
  }
  // The work of a step 2^scale: each use's window times the members' split atoms (an atom splits
  // onto two points, atoms closer than a step share them).
  const auto [span_lo, span_hi] = loss_span(members_);
  const double span = std::max(span_hi - span_lo, 0.0);
  const auto estimate = [&](int scale, std::size_t& cells, double kernels) {
    const double h = std::ldexp(1.0, scale);
    // Per menu and group, its members' mean split atoms times its kernels (members, or clusters
    // of them).
    std::vector<double> per_cell(menus_.size(), 0.0);
    for (std::size_t s = 0; s < menus_.size(); ++s)
      for (std::size_t g = 0; g < menus_[s].groups; ++g) {
        double atoms = 0, members = 0;
        for (std::size_t c = 0; c < members_.size(); ++c)
          if (members_[c].menu == s && members_[c].group == g && kept_[c]) {
            const Spread& x = spreads[c];
            atoms += std::min(2.0 * static_cast<double>(x.atoms), (x.high - x.low) / h + 3) + 1;
            members += 1;
          }
        if (members == 0) continue;
        per_cell[s] += atoms / members * std::min(members, kernels);
      }
    double work = 0;
    cells = 0;
    std::size_t s = 0;
    for (std::uint64_t t = 0; t <= k_; ++t) {
      const double c = (hi[t] - lo[t]) / h + 3;
      cells = std::max(cells, static_cast<std::size_t>(std::min(c, 1e18)));
      while (s + 1 < segs_.size() && segs_[s + 1].start <= t) ++s;
      if (t < k_) work += c * per_cell[segs_[s].menu];
    }
    return work;
  };
  int coarsest = kCoarsest;
  if (var > 0) coarsest = std::min(coarsest, static_cast<int>(std::floor(std::log2(std::sqrt(var) / 4))));
  if (span > 0) coarsest = std::max(coarsest, static_cast<int>(std::ceil(std::log2(span / kMaxSpanPoints))));
  coarsest = std::max(coarsest, kFinest);
  // The members that another's split dominates on the coarsest grid do not count in the work
  // (build_kernels prunes again on the grid it is given).
  slack_ = tau_ * 1e4 / static_cast<double>(k_);
  {
    const GridSplitter splitter(grid_at(coarsest));
    kept_ = prune(splitter, splits(splitter)).kept;
  }
  // Every member its own kernel where the work allows it on the coarsest grid, else clusters.
  std::size_t cells = 0;
  kernels_ = kInf;
  work_ = estimate(coarsest, cells, kernels_);
  if (work_ > limits_.max_work) {
    kernels_ = static_cast<double>(std::max<std::size_t>(limits_.kernels, 1));
    work_ = estimate(coarsest, cells, kernels_);
  }
  if (work_ > limits_.max_work || cells > limits_.max_cells) return false;
  scale_ = coarsest;
  for (int s = coarsest - 1; s >= std::max(kFinest, coarsest - kRefinements); --s) {
    if (span > 0 && span / std::ldexp(1.0, s) > kMaxSpanPoints) break;
    const double w = estimate(s, cells, kernels_);
    if (w > limits_.refine_work || cells > limits_.max_cells) break;
    scale_ = s;
    work_ = w;
  }
  h_ = std::ldexp(1.0, scale_);
  window_.resize(k_ + 1);
  for (std::uint64_t t = 0; t <= k_; ++t) {
    window_[t].lo = static_cast<std::int64_t>(std::floor(lo[t] / h_));
    window_[t].hi = static_cast<std::int64_t>(std::ceil(hi[t] / h_));
    cells_ = std::max(cells_, window_[t].size());
  }
  return true;
}

LossGrid Program::grid_at(int scale) const {
  const auto [span_lo, span_hi] = loss_span(members_);
  const double h = std::ldexp(1.0, scale);
  LossGrid grid;
  grid.scale = scale;
  grid.offset = static_cast<std::int64_t>(std::floor(span_lo / h)) - 1;
  grid.top = static_cast<std::int64_t>(std::ceil(span_hi / h)) + 1;
  return grid;
}

std::vector<UpperPld> Program::splits(const GridSplitter& splitter) const {
  // Each kernel's lightest ends, at most τ/(2k) of P-mass a side, move up: the top end to +∞, the
  // bottom end onto the lowest point kept (V is non-decreasing and at most 1, so each use's value
  // grows by less than τ/k).
  const double trim = tau_ / (2 * static_cast<double>(k_));
  std::vector<UpperPld> out;
  for (const ChoiceMember& m : members_) {
    UpperPld u = splitter.split(*m.p, *m.q, m.disjoint);
    std::size_t bottom = 0, top = u.mass.size();
    double moved = 0;
    while (top > 1 && add_up(moved, u.mass[top - 1]) <= trim) moved = add_up(moved, u.mass[--top]);
    for (std::size_t g = top; g < u.mass.size(); ++g) u.mass[g] = 0;
    u.infinite = std::min(1.0, add_up(u.infinite, moved));
    moved = 0;
    while (bottom + 1 < top && add_up(moved, u.mass[bottom]) <= trim) {
      moved = add_up(moved, u.mass[bottom]);
      u.mass[bottom++] = 0;
    }
    if (bottom < top) u.mass[bottom] = add_up(u.mass[bottom], moved);
    out.push_back(std::move(u));
  }
  return out;
}

namespace {

/// The profile H(γ) = m_∞ + Σ_i m_i (1 − γ e^(−y_i))₊ of grid masses at every grid point γ_k =
/// e^(y_k), bounded above (`up`) or below, by the recurrence of GridSplitter::profile_up; and at
/// γ = 0 (the total mass) as the last element.
std::vector<double> profile_bounds(const UpperPld& u, double decay_up, double decay_down, double rise_up,
                                   double rise_down, bool up) {
  const std::size_t n = u.mass.size();
  std::vector<double> h(n + 1);
  double w = 0, d = 0, total = u.infinite;
  for (std::size_t k = n; k-- > 0;) {
    h[k] = up ? add_up(u.infinite, d) : add_down(u.infinite, d);
    const double t = up ? add_up(w, u.mass[k]) : add_down(w, u.mass[k]);
    d = up ? add_up(d, mul_up(rise_up, t)) : std::max(0.0, add_down(d, mul_down(rise_down, t)));
    w = up ? mul_up(decay_up, t) : std::max(0.0, mul_down(decay_down, t));
    total = up ? add_up(total, u.mass[k]) : add_down(total, u.mass[k]);
  }
  h[n] = total;
  return h;
}

}  // namespace

Program::Pruned Program::prune(const GridSplitter& splitter, const std::vector<UpperPld>& split) const {
  // Two splits on one grid have profiles linear in γ between its points (and below the first,
  // and constant past the last), so one at most another at every point, at γ = 0 and at +∞ is at
  // most it everywhere; then (envelope.hpp's argument, for any masses) every use's step of the
  // one is at most the other's, and V's recursion may leave the one out. The comparison is
  // certified: the one's profile bounded above, the other's below, plus slack_ added to the
  // other's mass at +∞ where it is needed. An attained member is left out only for an attained one
  // of its group (the strategy then plays that one).
  Mp e;
  const Mp minus_h = Mp::grid_point(-1, splitter.grid().scale);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDU);
  const double decay_up = e.up(), rise_down = sub_down(1.0, e.up());
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDD);
  const double decay_down = e.down(), rise_up = sub_up(1.0, e.down());
  const std::size_t n = split.size();
  std::vector<std::vector<double>> above(n), below(n);
  for (std::size_t c = 0; c < n; ++c) {
    above[c] = profile_bounds(split[c], decay_up, decay_down, rise_up, rise_down, true);
    below[c] = profile_bounds(split[c], decay_up, decay_down, rise_up, rise_down, false);
  }
  // The largest profiles first (at the point just above loss 0): they are the likely survivors.
  std::size_t decisive = 0;
  while (decisive + 1 < splitter.grid().points() &&
         splitter.grid().offset + static_cast<std::int64_t>(decisive) <= 0)
    ++decisive;
  std::vector<std::size_t> order(n);
  for (std::size_t c = 0; c < n; ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return below[a][decisive] > below[b][decisive]; });
  Pruned out;
  out.kept.assign(n, false);
  out.slack.assign(n, false);
  std::vector<std::size_t> survivors;
  for (std::size_t a : order) {
    bool dominated = false;
    for (std::size_t b : survivors) {
      if (members_[b].menu != members_[a].menu || members_[b].group != members_[a].group ||
          (members_[a].attained && !members_[b].attained))
        continue;
      // A drawn group's strategy plays one input in every group: keep each input's best.
      if (menus_[members_[a].menu].drawn() && members_[a].attained && members_[b].input != members_[a].input)
        continue;
      bool all = split[a].infinite <= add_up(split[b].infinite, slack_);
      for (std::size_t k = 0; all && k < above[a].size(); ++k) all = above[a][k] <= add_down(below[b][k], slack_);
      if (all) {
        dominated = true;
        out.slack[b] = true;
        break;
      }
    }
    if (!dominated) {
      survivors.push_back(a);
      out.kept[a] = true;
    }
  }
  return out;
}

void Program::build_kernels() {
  const auto splitter = std::make_shared<const GridSplitter>(grid_at(scale_));
  const LossGrid& grid = splitter->grid();
  const std::vector<UpperPld> split = splits(*splitter);
  const Pruned pruned = prune(*splitter, split);
  // The grid point just above loss 0, where a long composition is decided: a cluster's
  // representative is its attained member largest there.
  std::size_t decisive = 0;
  while (decisive + 1 < grid.points() && grid.offset + static_cast<std::int64_t>(decisive) <= 0) ++decisive;
  bool first = true;
  const auto add_kernel = [&](const UpperPld& u, bool slack, std::size_t menu, std::size_t group,
                              std::size_t representative) {
    Kernel k;
    k.infinite = slack ? std::min(1.0, add_up(u.infinite, slack_)) : u.infinite;
    k.menu = menu;
    k.group = group;
    k.representative = representative;
    if (representative != Kernel::kNone) k.input = members_[representative].input;
    for (std::size_t g = 0; g < u.mass.size(); ++g) {
      if (u.mass[g] <= 0) continue;
      const std::int64_t a = u.offset + static_cast<std::int64_t>(g);
      k.offset.push_back(a);
      k.weight.push_back(u.mass[g]);
      amin_ = first ? a : std::min(amin_, a);
      amax_ = first ? a : std::max(amax_, a);
      first = false;
    }
    menus_[menu].kernels.push_back(kernel_.size());
    kernel_.push_back(std::move(k));
  };
  for (std::size_t s = 0; s < menus_.size(); ++s)
  for (std::size_t g = 0; g < menus_[s].groups; ++g) {
    std::vector<std::size_t> in;
    for (std::size_t c = 0; c < members_.size(); ++c)
      if (members_[c].menu == s && members_[c].group == g && pruned.kept[c]) in.push_back(c);
    const std::size_t clusters =
        kernels_ < static_cast<double>(in.size()) ? static_cast<std::size_t>(kernels_) : in.size();
    for (std::size_t k = 0; k < clusters; ++k) {
      const std::size_t from = in.size() * k / clusters, to = in.size() * (k + 1) / clusters;
      if (to - from == 1) {  // alone: its own split
        const std::size_t c = in[from];
        add_kernel(split[c], pruned.slack[c], s, g, members_[c].attained ? c : Kernel::kNone);
        continue;
      }
      // Consecutive members (the caller lists similar ones together) bounded by the pair that
      // dominates them all at every e^ε (envelope.hpp): V's step is monotone in the profile.
      ProfileEnvelope envelope(splitter);
      std::size_t any_attained = Kernel::kNone;
      bool slack = false;
      for (std::size_t i = from; i < to; ++i) {
        const std::size_t c = in[i];
        envelope.add(split[c]);
        slack = slack || pruned.slack[c];
        if (members_[c].attained && any_attained == Kernel::kNone) any_attained = c;
      }
      // The representative: the attained member whose split is largest just above loss 0.
      std::size_t best = any_attained;
      double best_value = -1;
      for (std::size_t i = from; i < to; ++i) {
        const std::size_t c = in[i];
        if (!members_[c].attained) continue;
        double v = split[c].infinite;
        for (std::size_t j = decisive + 1; j < split[c].mass.size(); ++j) v += split[c].mass[j];
        if (v > best_value) {
          best_value = v;
          best = c;
        }
      }
      add_kernel(envelope.dominating(), slack, s, g, best);
    }
  }
  std::vector<double> per_cell(menus_.size(), 0.0);
  for (const Kernel& k : kernel_) per_cell[k.menu] += static_cast<double>(k.offset.size() + 1);
  work_ = 0;
  for (const Stretch& s : segs_)
    for (std::uint64_t t = s.start; t < s.start + s.uses; ++t)
      work_ += per_cell[s.menu] * static_cast<double>(window_[t].size());
  // Where the group is drawn, the strategy fixes client 1's input before the draw: the kernels
  // in order of it.
  for (Menu& x : menus_) {
    if (!x.drawn()) continue;
    x.by_input = x.kernels;
    std::stable_sort(x.by_input.begin(), x.by_input.end(),
                     [&](std::size_t a, std::size_t b) { return kernel_[a].input < kernel_[b].input; });
  }
}

void Program::backward() {
  // U_k: (1 − e^(−ℓ))₊ rounded up at the grid points.
  const Window& last = window_[k_];
  std::vector<double> at_end(last.size());
  for (std::size_t j = 0; j < at_end.size(); ++j) {
    const std::int64_t i = last.lo + static_cast<std::int64_t>(j);
    at_end[j] = i <= 0 ? 0.0 : std::min(1.0, sub_up(1.0, exp_grid(-i, scale_, false)));
  }
  policy_.assign(k_, {});
  std::size_t max_terms = 1;
  for (const Kernel& k : kernel_) max_terms = std::max(max_terms, k.offset.size() + 1);
  const SumWidening widen(max_terms, 2);
  // Per menu, the slots whose strategy has an attained member to play.
  std::vector<std::vector<bool>> slot_attained(menus_.size());
  for (std::size_t s = 0; s < menus_.size(); ++s) {
    std::vector<bool>& a = slot_attained[s];
    a.assign(menus_[s].slots, false);
    for (const std::size_t c : menus_[s].kernels)
      a[kernel_[c].group] = a[kernel_[c].group] || kernel_[c].representative != Kernel::kNone;
    if (menus_[s].slots > menus_[s].groups)
      a[menus_[s].groups] = std::any_of(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(menus_[s].groups),
                                        [](bool b) { return b; });
  }
  // Lanes: one value function, the best of every kernel; or, where the group is drawn each round,
  // one per group through a round, U^g_t(ℓ) = max over g's kernels, combined at the round's first
  // use as U_t = Σ_g w_g U^g_t (the draw is revealed, and the adversary chooses knowing it). A
  // segment reads the next one's value at its start: lane 0 (every lane holds it where that
  // segment's group is drawn, one lane otherwise).
  std::size_t lanes = 1, slots = 1;
  for (const Menu& x : menus_) {
    lanes = std::max(lanes, lanes_of(x));
    slots = std::max(slots, x.slots);
  }
  const SumWidening widen_mix(lanes, 2);

  const unsigned threads = thread_count(cells_ / 256 + 1, limits_.threads);
  std::vector<std::vector<double>> next(lanes, at_end), cur(lanes), ext(lanes);
  std::vector<std::vector<std::uint32_t>> arg(slots);
  std::vector<std::exception_ptr> failed(threads);
  std::uint64_t t = k_;
  std::size_t seg = segs_.size() - 1;
  Window w_next = last, w_cur;
  std::int64_t ext_lo = 0;
  // Before each step: the window, each lane's extended array of U_(t+1) (clamped past its window)
  // and the outputs sized; thread 0 does that between the barriers, every thread then a slice of
  // the window, every member.
  const auto prepare = [&]() {
    --t;
    const bool entering = t + 1 == k_ || t < segs_[seg].start;  // U_(t+1) is a later segment's
    seg = segment_at(t);
    const Menu& x = menus_[segs_[seg].menu];
    w_cur = window_[t];
    ext_lo = w_cur.lo + amin_;
    const std::int64_t ext_hi = w_cur.hi + amax_;
    for (std::size_t l = 0; l < lanes_of(x); ++l) {
      const std::vector<double>& from = next[entering ? 0 : l];
      ext[l].resize(static_cast<std::size_t>(ext_hi - ext_lo + 1));
      for (std::int64_t j = ext_lo; j <= ext_hi; ++j)
        ext[l][static_cast<std::size_t>(j - ext_lo)] = j < w_next.lo   ? from.front()
                                                      : j > w_next.hi ? 1.0
                                                                      : from[static_cast<std::size_t>(j - w_next.lo)];
      cur[l].assign(w_cur.size(), 0.0);
    }
    for (std::size_t g = 0; g < x.slots; ++g) arg[g].assign(w_cur.size(), ~std::uint32_t(0));
    if (x.drawn() && segs_[seg].first_of_round(t))
      best_arg_.assign(x.groups, std::vector<std::uint32_t>(w_cur.size(), ~std::uint32_t(0)));
  };
  const auto finish = [&]() {
    const Menu& x = menus_[segs_[seg].menu];
    policy_[t].resize(x.slots);
    for (std::size_t g = 0; g < x.slots; ++g) {
      if (!slot_attained[segs_[seg].menu][g]) continue;
      Runs& r = policy_[t][g];
      for (std::size_t j = 0; j < w_cur.size(); ++j)
        if (r.member.empty() || arg[g][j] != r.member.back()) {
          r.start.push_back(w_cur.lo + static_cast<std::int64_t>(j));
          r.member.push_back(arg[g][j]);
        }
    }
    if (x.drawn() && segs_[seg].first_of_round(t)) {  // the round's first use: its draw
      std::vector<double> mixed(w_cur.size());
      for (std::size_t j = 0; j < mixed.size(); ++j) {
        double sum = 0;
        for (std::size_t l = 0; l < x.groups; ++l) sum += x.weight_up[l] * cur[l][j];
        mixed[j] = std::min(1.0, widen_mix.up(sum));
      }
      for (std::size_t l = 0; l < x.groups; ++l) cur[l] = mixed;
    }
    next.swap(cur);
    w_next = w_cur;
  };
  const auto slice = [&](unsigned id) {
    const Menu& x = menus_[segs_[seg].menu];
    const std::size_t n = w_cur.size();
    const std::size_t from = n * id / threads, to = n * (id + 1) / threads;
    if (from >= to) return;
    const bool drawn = x.drawn();
    std::vector<double> acc(to - from);
    std::vector<std::vector<double>> best_all(lanes_of(x), std::vector<double>(to - from, 0.0));
    std::vector<std::vector<double>> best(x.slots, std::vector<double>(to - from, -1.0));
    // At a drawn round's first use the strategy fixes client 1's input before the draw: the input
    // whose groups' best members, weighted by the draw, are largest; the kernels come input by
    // input, and each input's best per group is closed when the next begins.
    const bool keyed = drawn && segs_[seg].first_of_round(t);
    std::vector<double> chosen(keyed ? to - from : 0, -1.0);
    const auto close_input = [&]() {
      for (std::size_t j = 0; j < to - from; ++j) {
        double v = 0;
        for (std::size_t g = 0; g < x.groups; ++g) v += x.weight_up[g] * std::max(best[g][j], 0.0);
        if (v > chosen[j]) {
          chosen[j] = v;
          for (std::size_t g = 0; g < x.groups; ++g) arg[g][from + j] = best_arg_[g][from + j];
        }
        for (std::size_t g = 0; g < x.groups; ++g) {
          best[g][j] = -1.0;
          best_arg_[g][from + j] = ~std::uint32_t(0);
        }
      }
    };
    const std::vector<std::size_t>& order = keyed ? x.by_input : x.kernels;
    for (std::size_t o = 0; o < order.size(); ++o) {
      const std::size_t c = order[o];
      const Kernel& k = kernel_[c];
      if (keyed && o > 0 && kernel_[order[o - 1]].input != k.input) close_input();
      const std::size_t lane = drawn ? k.group : 0;
      std::fill(acc.begin(), acc.end(), k.infinite);
      for (std::size_t e = 0; e < k.offset.size(); ++e) {
        const double wgt = k.weight[e];
        const double* src = ext[lane].data() + (static_cast<std::int64_t>(from) + k.offset[e] - amin_);
        double* dst = acc.data();
        for (std::size_t j = 0; j < to - from; ++j) dst[j] += wgt * src[j];
      }
      for (std::size_t j = 0; j < to - from; ++j) best_all[lane][j] = std::max(best_all[lane][j], acc[j]);
      if (k.representative == Kernel::kNone) continue;
      const auto choose = [&](std::size_t slot) {
        std::vector<double>& bg = best[slot];
        std::uint32_t* ag = (keyed ? best_arg_[slot] : arg[slot]).data() + from;
        for (std::size_t j = 0; j < to - from; ++j)
          if (acc[j] > bg[j]) {
            bg[j] = acc[j];
            ag[j] = static_cast<std::uint32_t>(c);
          }
      };
      choose(k.group);
      if (x.slots > x.groups) choose(x.groups);  // the strategy that picks the group too
    }
    if (keyed) close_input();
    for (std::size_t l = 0; l < lanes_of(x); ++l)
      for (std::size_t j = 0; j < to - from; ++j) cur[l][from + j] = std::min(1.0, widen.up(best_all[l][j]));
  };
  if (k_ == 0) return;
  prepare();
  std::barrier sync(static_cast<std::ptrdiff_t>(threads), []() noexcept {});
  bool done = false;
  const auto worker = [&](unsigned id) {
    while (true) {
      try {
        slice(id);
      } catch (...) {
        if (!failed[id]) failed[id] = std::current_exception();
      }
      sync.arrive_and_wait();  // every slice written
      if (id == 0) {
        const bool any_failed =
            std::any_of(failed.begin(), failed.end(), [](const std::exception_ptr& e) { return bool(e); });
        try {
          if (!any_failed) finish();
          if (any_failed || t == 0)
            done = true;  // every thread leaves after the next barrier
          else
            prepare();
        } catch (...) {
          failed[0] = std::current_exception();
          done = true;
        }
      }
      sync.arrive_and_wait();  // the next step prepared, or the end
      if (done) return;
    }
  };
  run_on_threads(threads, worker);
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  u0_ = next.front();
}

double Program::value0(std::int64_t i) const {
  const Window& w = window_[0];
  if (i < w.lo) return u0_.front();
  if (i > w.hi) return 1.0;
  return u0_[static_cast<std::size_t>(i - w.lo)];
}

/// δ(ε) bounded above at ℓ = −ε given in MPFR: the chord in e^(−ℓ) between the grid points around.
double Program::bound_at(const Mp& minus_eps) const {
  Mp cells;
  mpfr_mul_2si(cells.get(), minus_eps.get(), -scale_, MPFR_RNDN);  // exact
  mpfr_floor(cells.get(), cells.get());
  const auto i = static_cast<std::int64_t>(mpfr_get_si(cells.get(), MPFR_RNDN));
  Mp r;  // rounded up: a larger loss only raises V (non-decreasing)
  mpfr_sub(r.get(), minus_eps.get(), Mp::grid_point(i, scale_).get(), MPFR_RNDU);
  if (mpfr_zero_p(r.get())) return value0(i);
  const auto [above, below] = chord_weights(r, scale_);
  return std::min(1.0, add_up(mul_up(below, value0(i)), mul_up(above, value0(i + 1))));
}

/// The upper bound asked for, and the grid index of the ε the strategy aims at.
std::int64_t Program::answer(ProgramAnswer& out) {
  const auto bound = [&](double eps) {
    Mp minus(128);
    mpfr_set_d(minus.get(), -eps, MPFR_RNDU);  // exact: a double
    return bound_at(minus);
  };
  if (!query_.by_delta) {
    out.upper = bound_at(Mp::of(-query_.at, MPFR_RNDU));  // −ε rounded up: pessimistic
    return static_cast<std::int64_t>(std::llround(-to_double(query_.at) / h_));
  }
  const Rational& delta = query_.at;
  // Any ε whose bound is at most δ is a certificate (δ(ε) is non-increasing): the smallest of the
  // bracket's ends and grid points that is one, then bisection down to the next one that is not.
  std::vector<double> candidates{query_.eps_high};
  const std::int64_t first = static_cast<std::int64_t>(std::ceil(-query_.eps_high / h_));
  const std::int64_t last = static_cast<std::int64_t>(std::floor(-query_.eps_low / h_));
  for (std::int64_t i = first; i <= last; ++i) candidates.push_back(-static_cast<double>(i) * h_);
  candidates.push_back(query_.eps_low);
  std::size_t found = candidates.size();
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (to_rational(bound(candidates[c])) <= delta) found = c;
  if (found == candidates.size()) {
    out.upper = kInf;
    return first;
  }
  double eps_ok = candidates[found];
  if (found + 1 < candidates.size()) {
    double eps_bad = candidates[found + 1];  // its bound is above δ
    for (int it = 0; it < 60 && eps_ok - eps_bad > 1e-15 * std::max(1.0, eps_ok); ++it) {
      const double mid = eps_bad + (eps_ok - eps_bad) / 2;
      if (mid <= eps_bad || mid >= eps_ok) break;
      (to_rational(bound(mid)) <= delta ? eps_ok : eps_bad) = mid;
    }
  }
  out.upper = std::max(eps_ok, 0.0);
  return static_cast<std::int64_t>(std::llround(-eps_ok / h_));
}

ProgramAnswer::Strategy Program::forward(std::size_t group, std::int64_t target) const {
  // Each attained member of the group: its atoms (P-mass bounded below; Q-mass times e^(a h)
  // bounded above, a its loss's nearest grid point), and its mass certainly at +∞.
  struct Atoms {
    std::vector<std::int64_t> a;
    std::vector<double> p, qe, y;
    double infinite = 0;
  };
  std::vector<Atoms> atoms(members_.size());
  std::int64_t lo = 0, hi = 0;
  bool any = false;
  for (std::size_t c = 0; c < members_.size(); ++c) {
    const ChoiceMember& m = members_[c];
    if ((group != ProgramAnswer::kAnyGroup && m.group != group) || !m.attained) continue;
    Atoms& x = atoms[c];
    for (std::size_t i = 0; i < m.p->size(); ++i) {
      const double p = m.p->lo[i];
      if (p <= 0) continue;  // nothing certain: these transcripts are left out
      if (m.disjoint || m.q->hi[i] <= 0) {
        x.infinite = add_down(x.infinite, p);
        continue;
      }
      const double y = std::log((m.p->lo[i] + m.p->hi[i]) / (m.q->lo[i] + m.q->hi[i]));  // grouping
      // Outside the kernels' span (atoms too light to set it, ratios past the doubles): left out.
      if (!std::isfinite(y) || y / h_ < static_cast<double>(amin_) || y / h_ > static_cast<double>(amax_)) continue;
      const auto a = static_cast<std::int64_t>(std::round(y / h_));
      x.a.push_back(a);
      x.p.push_back(p);
      x.qe.push_back(mul_up(m.q->hi[i], exp_grid(a, scale_, true)));
      x.y.push_back(y);
      lo = any ? std::min(lo, a) : a;
      hi = any ? std::max(hi, a) : a;
      any = true;
    }
  }
  ProgramAnswer::Strategy out;
  out.group = group;
  out.uses.assign(members_.size(), 0);
  // States: cells of transcripts, from `offset`; P-mass below, Q-mass·e^(s h) above, and the
  // cell's approximate loss. A transcript extended by an atom goes to the cell of its approximate
  // loss, within two points of the sum of the grid points (as pld.hpp's optimistic products
  // group), so that a cell's point stays near its transcripts' losses (rounding each atom's loss
  // to the grid would drift by k times the rounding): the strategy reads the point.
  double shift_up[5];  // e^(d h) bounded above, d = −2..2
  for (int d = -2; d <= 2; ++d) shift_up[d + 2] = exp_grid(d, scale_, true);
  // At most five products per atom offset land in a cell: P·p (2 factors), T·qe·e^(d h) (3).
  const SumWidening widen_p(5 * static_cast<std::size_t>(hi - lo + 1), 2),
      widen_t(5 * static_cast<std::size_t>(hi - lo + 1), 3);
  // e^(−d h) bounded above, for merging a cell d points down.
  std::vector<double> lift(static_cast<std::size_t>(hi - lo + 8));
  for (std::size_t d = 0; d < lift.size(); ++d) lift[d] = exp_grid(-static_cast<std::int64_t>(d), scale_, true);
  // The cells of transcripts that play one member through the current round: a round's uses are
  // configured together, so the strategy chooses at each round's first use, from the cell the
  // transcript is in then, and keeps that member for the round.
  struct Block {
    std::int64_t offset = 0;
    std::vector<double> p, t, y;
    std::size_t member = Kernel::kNone;
  };
  const auto refresh = [&](Block& b) {
    b.y.resize(b.p.size());
    for (std::size_t j = 0; j < b.p.size(); ++j) {
      const double ref = static_cast<double>(b.offset + static_cast<std::int64_t>(j)) * h_;
      b.y[j] = (b.p[j] > 0 && b.t[j] > 0) ? ref + std::log(b.p[j] / b.t[j]) : ref;
    }
  };
  // Blocks merged cell by cell (a merge is a post-processing).
  const auto merged = [&](const std::vector<Block>& blocks) {
    Block out;
    if (blocks.empty()) {
      out.p = out.t = out.y = {0.0};
      return out;
    }
    std::int64_t from = blocks.front().offset, to = from;
    for (const Block& b : blocks) {
      from = std::min(from, b.offset);
      to = std::max(to, b.offset + static_cast<std::int64_t>(b.p.size()));
    }
    out.offset = from;
    out.p.assign(static_cast<std::size_t>(to - from), 0.0);
    out.t.assign(out.p.size(), 0.0);
    for (const Block& b : blocks)
      for (std::size_t j = 0; j < b.p.size(); ++j) {
        const auto at = static_cast<std::size_t>(b.offset - from) + j;
        out.p[at] = std::max(0.0, add_down(out.p[at], b.p[j]));
        out.t[at] = add_up(out.t[at], b.t[j]);
      }
    refresh(out);
    return out;
  };
  std::vector<Block> blocks(1);
  blocks[0].p = blocks[0].t = {1.0};
  blocks[0].y = {0.0};
  double infinite = 0;
  std::vector<double> np, nt;
  for (std::uint64_t step = 0; step < k_; ++step) {
    const Stretch& here = segs_[segment_at(step)];
    const Menu& x = menus_[here.menu];
    if (here.first_of_round(step)) {  // the round's choice: the whole state, split by the policy's runs
      const Block all = merged(blocks);
      const Window& w = window_[step];
      blocks.clear();
      // The transcripts that play a slot's policy, their masses times the chance that it is
      // played (1, or a drawn group's weight: P-mass bounded below, Q-mass above).
      const auto play = [&](const Runs& runs, double p_weight, double t_weight) {
        if (runs.start.empty()) return;  // no attained member: these transcripts are left out
        std::size_t run = 0;
        bool open = false;
        for (std::size_t j = 0; j < all.p.size(); ++j) {
          const std::int64_t i = std::clamp(all.offset + static_cast<std::int64_t>(j) + target, w.lo, w.hi);
          while (run + 1 < runs.start.size() && runs.start[run + 1] <= i) ++run;
          const std::size_t member =
              runs.member[run] == ~std::uint32_t(0) ? Kernel::kNone : kernel_[runs.member[run]].representative;
          if (member == Kernel::kNone) {  // no attained member here: left out
            open = false;
            continue;
          }
          if (!open || blocks.back().member != member) {
            blocks.emplace_back();
            blocks.back().offset = all.offset + static_cast<std::int64_t>(j);
            blocks.back().member = member;
            open = true;
          }
          blocks.back().p.push_back(p_weight == 1 ? all.p[j] : mul_down(all.p[j], p_weight));
          blocks.back().t.push_back(t_weight == 1 ? all.t[j] : mul_up(all.t[j], t_weight));
          blocks.back().y.push_back(all.y[j]);
        }
      };
      if (x.drawn())  // the round's group drawn, and revealed: each group's policy on its share
        for (std::size_t g = 0; g < x.groups; ++g) play(policy_[step][g], x.weight_down[g], x.weight_up[g]);
      else  // the group kept, or picked (the any-group slot), or the segment's one group
        play(policy_[step][group != ProgramAnswer::kAnyGroup ? group : x.chosen ? x.groups : 0], 1, 1);
    }
    std::vector<bool> played(members_.size(), false);
    const Window& next = window_[step + 1];
    std::vector<Block> evolved;
    for (const Block& b : blocks) {
      const Atoms& x = atoms[b.member];
      const std::int64_t noff = b.offset + lo - 2;
      np.assign(b.p.size() + static_cast<std::size_t>(hi - lo) + 4, 0.0);
      nt.assign(np.size(), 0.0);
      const auto last_cell = static_cast<std::int64_t>(np.size()) - 1;
      double to_infinite = 0;
      std::size_t states = 0;
      for (std::size_t j = 0; j < b.p.size(); ++j) {
        if (b.p[j] <= 0) continue;  // P = 0: these transcripts never add to the sum again
        const std::int64_t s = b.offset + static_cast<std::int64_t>(j);
        ++states;
        to_infinite += b.p[j] * x.infinite;
        for (std::size_t e = 0; e < x.a.size(); ++e) {
          const std::int64_t nominal = s + x.a[e] - noff;
          const double cell = std::floor((b.y[j] + x.y[e]) / h_) - static_cast<double>(noff);
          const std::int64_t at = std::clamp(static_cast<std::int64_t>(std::clamp(cell, -1e15, 1e15)),
                                             std::max<std::int64_t>(nominal - 2, 0),
                                             std::min(nominal + 2, last_cell));
          np[at] += b.p[j] * x.p[e];
          nt[at] += b.t[j] * x.qe[e] * shift_up[at - nominal + 2];
        }
      }
      if (states == 0) continue;
      played[b.member] = true;
      for (std::size_t j = 0; j < np.size(); ++j) {
        np[j] = widen_p.down(np[j]);
        nt[j] = widen_t.up(nt[j]);
      }
      infinite = std::min(1.0, add_down(infinite, SumWidening(states + 1, 2).down(to_infinite)));
      // The states the windows keep: below the next window's lowest point (where the rest of the
      // run reaches ε with probability below τ) they are left out; above its top (past ε by more
      // than ln(1/τ), where every transcript counts almost whole) they merge into its top point,
      // their Q-mass times e^(s h) moved down to it (a merge is a post-processing).
      const std::int64_t top = std::clamp(next.hi - target - noff, std::int64_t(0), last_cell);
      for (std::int64_t j = last_cell; j > top; --j) {
        if (np[j] <= 0) continue;
        const auto d = static_cast<std::size_t>(j - top);
        const double down = d < lift.size() ? lift[d] : exp_grid(-static_cast<std::int64_t>(d), scale_, true);
        np[top] = add_down(np[top], np[j]);
        nt[top] = add_up(nt[top], mul_up(nt[j], down));
        np[j] = nt[j] = 0;
      }
      std::size_t first = static_cast<std::size_t>(std::clamp(next.lo - target - noff, std::int64_t(0), top));
      std::size_t last = static_cast<std::size_t>(top) + 1;
      // Then the ends' lightest cells are left out (at most the trim's mass a side), as LowerPld
      // trims.
      double dropped = 0;
      while (last > first + 1 && dropped + np[last - 1] <= pld_limits_.tail / 2) dropped += np[--last];
      dropped = 0;
      while (first + 1 < last && dropped + np[first] <= pld_limits_.tail / 2) dropped += np[first++];
      Block o;
      o.member = b.member;
      o.offset = noff + static_cast<std::int64_t>(first);
      o.p.assign(np.begin() + static_cast<std::ptrdiff_t>(first), np.begin() + static_cast<std::ptrdiff_t>(last));
      o.t.assign(nt.begin() + static_cast<std::ptrdiff_t>(first), nt.begin() + static_cast<std::ptrdiff_t>(last));
      refresh(o);
      evolved.push_back(std::move(o));
    }
    blocks.swap(evolved);
    for (std::size_t c = 0; c < played.size(); ++c) out.uses[c] += played[c];
  }
  const Block all = merged(blocks);
  LowerPld& l = out.lower;
  l.scale = scale_;
  l.offset = all.offset;
  l.p = all.p;
  l.t = all.t;
  l.y = all.y;
  l.infinite = std::clamp(infinite, 0.0, 1.0);
  return out;
}

ProgramAnswer Program::solve() {
  ProgramAnswer out;
  if (!plan_grid()) return out;
  build_kernels();
  out.scale = scale_;
  out.cells = cells_;
  out.work = work_;
  out.clustered = kernel_.size() < members_.size() && std::isfinite(kernels_);
  if (work_ > 2 * limits_.max_work) return out;  // the estimate's atoms shared fewer points
  backward();
  const std::int64_t target = answer(out);
  out.run = true;
  // Rounds unknown: no strategy is known to be attained.
  if (std::any_of(segs_.begin(), segs_.end(), [](const Stretch& x) { return !x.round_known; })) return out;
  // Whether a menu's slot has an attained member to play (a family for the upper end only,
  // ChoicePlan::bounding, has none).
  const auto playable = [&](std::size_t menu, std::size_t group) {
    return std::any_of(members_.begin(), members_.end(), [&](const ChoiceMember& m) {
      return m.menu == menu && m.attained && (group == ProgramAnswer::kAnyGroup || m.group == group);
    });
  };
  if (segs_.size() > 1 || menus_.front().drawn()) {
    // One strategy: in each segment its drawn groups' policies on their draws (each group must
    // have a member to play at its draw), or its one group's, or any group's where picked.
    bool every = true;
    for (std::size_t s = 0; s < menus_.size(); ++s) {
      if (!menus_[s].drawn()) {
        every = every && playable(s, ProgramAnswer::kAnyGroup);
        continue;
      }
      for (std::size_t g = 0; g < menus_[s].groups; ++g) every = every && playable(s, g);
    }
    if (every) out.strategies.push_back(forward(ProgramAnswer::kAnyGroup, target));
    return out;
  }
  const Menu& x = menus_.front();
  for (std::size_t g = 0; g < x.groups; ++g)
    if (playable(0, g)) out.strategies.push_back(forward(g, target));
  if (x.slots > x.groups && !out.strategies.empty()) out.strategies.push_back(forward(ProgramAnswer::kAnyGroup, target));
  return out;
}

}  // namespace

ProgramAnswer adaptive_worst_case(const std::vector<ChoiceMember>& members, std::uint64_t uses,
                                  const ProgramQuery& query, const ProgramLimits& limits,
                                  const PldLimits& pld_limits) {
  if (members.empty()) throw invalid_argument("members", "none", "at least one configuration");
  for (const ChoiceMember& m : members)
    if (!m.p || !m.q || m.p->size() != m.q->size())
      throw invalid_argument("members", "a member without laws on one window", "P and Q on one window");
  if (uses == 0) throw invalid_argument("uses", "0", "at least 1");
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  if (query.by_delta) {
    if (query.at <= 0 || query.at >= 1) throw invalid_argument("delta", to_string(query.at), "in (0, 1)");
    if (!(query.eps_low >= 0) || !(query.eps_high >= query.eps_low) || !std::isfinite(query.eps_high))
      throw invalid_argument("eps bracket",
                             "[" + std::to_string(query.eps_low) + ", " + std::to_string(query.eps_high) + "]",
                             "finite, 0 <= low <= high");
  } else if (query.at < 0) {
    throw invalid_argument("eps", to_string(query.at), "at least 0");
  }
  // One segment of every use, as the query says; or the segments given.
  std::vector<ProgramSegment> segments = query.segments;
  if (segments.empty()) {
    segments.push_back({uses, query.round, query.groups_chosen, query.group_weights, 0});
  } else if (query.round != 1 || query.groups_chosen || !query.group_weights.empty()) {
    throw invalid_argument("segments", "given beside the query's round or groups", "the segments' own");
  }
  std::uint64_t total = 0;
  for (const ProgramSegment& x : segments) {
    if (x.uses == 0 || total > uses - std::min(uses, x.uses))
      throw invalid_argument("uses", std::to_string(uses), "the segments' uses, each at least 1, in sum");
    total += x.uses;
  }
  if (total != uses) throw invalid_argument("uses", std::to_string(uses), "the segments' sum, " + std::to_string(total));
  // The menus the segments name, each described the same wherever it is named.
  std::size_t menus = 0;
  for (const ProgramSegment& x : segments) menus = std::max(menus, x.menu + 1);
  std::vector<const ProgramSegment*> first(menus, nullptr);
  for (const ProgramSegment& x : segments) {
    const ProgramSegment*& f = first[x.menu];
    if (!f) f = &x;
    else if (f->groups_chosen != x.groups_chosen || f->group_weights != x.group_weights)
      throw invalid_argument("segments", "menu " + std::to_string(x.menu) + " with other groups",
                             "the same groups wherever a menu is named");
  }
  std::vector<std::size_t> groups(menus, 0);
  for (const ChoiceMember& m : members) {
    if (m.menu >= menus || !first[m.menu])
      throw invalid_argument("segments", std::to_string(segments.size()), "one naming every member's menu");
    groups[m.menu] = std::max(groups[m.menu], m.group + 1);
  }
  for (std::size_t s = 0; s < menus; ++s) {
    if (!first[s]) throw invalid_argument("segments", "menu " + std::to_string(s) + " unnamed", "every menu named");
    const ProgramSegment& x = *first[s];
    if (groups[s] == 0) throw invalid_argument("members", "none on menu " + std::to_string(s), "at least one on each");
    if (segments.size() > 1 && groups[s] > 1 && !x.groups_chosen && x.group_weights.empty())
      throw invalid_argument("segments", "several groups neither drawn nor picked",
                             "drawn or picked where there are several segments");
    if (x.group_weights.empty()) continue;
    Rational sum(0);
    for (const Rational& w : x.group_weights) {
      if (w < 0 || w > 1) throw invalid_argument("group_weights", to_string(w), "each in [0, 1]");
      sum += w;
    }
    if (x.group_weights.size() != groups[s] || sum != 1)
      throw invalid_argument("group_weights", std::to_string(x.group_weights.size()) + " weights",
                             "one per group (" + std::to_string(groups[s]) + "), adding up to 1");
    // A drawn group without members would add nothing to the upper bound's mixture.
    std::vector<bool> listed(groups[s], false);
    for (const ChoiceMember& m : members)
      if (m.menu == s) listed[m.group] = true;
    for (std::size_t g = 0; g < groups[s]; ++g)
      if (!listed[g] && x.group_weights[g] > 0)
        throw invalid_argument("members", "none in group " + std::to_string(g), "at least one in every drawn group");
  }
  for (const ProgramSegment& x : segments)
    if (!x.group_weights.empty() && (x.groups_chosen || x.round == 0))
      throw invalid_argument("group_weights", "given", "without groups_chosen, and with rounds known");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Program program(members, uses, query, segments, limits, pld_limits);
  return program.solve();
}

}  // namespace corbin
