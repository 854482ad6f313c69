#include "corbin/privacy/pld/envelope.hpp"

#include <algorithm>
#include <limits>

#include "corbin/number/directed.hpp"
#include "corbin/number/mp.hpp"

namespace corbin {

using namespace directed;

ProfileEnvelope::ProfileEnvelope(std::shared_ptr<const GridSplitter> splitter)
    : splitter_(std::move(splitter)),
      value_(splitter_->grid().points(), 0.0),
      best_(splitter_->grid().points(), -1.0),
      best_tag_(splitter_->grid().points(), kNoTag),
      moments_(moment_orders().size(), 1.0) {}

void ProfileEnvelope::merge(const ProfileEnvelope& other) {
  for (std::size_t k = 0; k < value_.size(); ++k) {
    value_[k] = std::max(value_[k], other.value_[k]);
    if (other.best_tag_[k] != kNoTag &&
        (other.best_[k] > best_[k] ||
         (other.best_[k] == best_[k] && other.best_tag_[k] < best_tag_[k]))) {
      best_[k] = other.best_[k];
      best_tag_[k] = other.best_tag_[k];
    }
  }
  for (std::size_t o = 0; o < moments_.size(); ++o)
    moments_[o] = std::max(moments_[o], other.moments_[o]);
  members_ += other.members_;
}

void ProfileEnvelope::add(const WindowPmf& p, const WindowPmf& q, bool disjoint, std::size_t tag,
                          double slack, const std::vector<double>* tail) {
  if (tag != kNoTag) {
    double certain = 0;  // P-mass (bounded below) where Q is certainly 0
    if (disjoint) {
      certain = 1;
    } else {
      for (std::size_t i = 0; i < p.size(); ++i)
        if (q.hi[i] == 0) certain += p.lo[i];
    }
    if (certain > disjoint_ || (certain == disjoint_ && certain > 0 && tag < disjoint_tag_)) {
      disjoint_ = certain;
      disjoint_tag_ = tag;
    }
  }
  const UpperPld masses = splitter_->split(p, q, disjoint);
  const std::vector<double> m = splitter_->moments_up(masses, tail);
  for (std::size_t o = 0; o < m.size(); ++o) {
    const double with_slack = slack > 0
                                  ? add_up(m[o], tail ? mul_up(slack, (*tail)[o])
                                                      : std::numeric_limits<double>::infinity())
                                  : m[o];
    moments_[o] = std::max(moments_[o], with_slack);
  }
  const std::vector<double> h = splitter_->profile_up(masses);
  for (std::size_t k = 0; k < h.size(); ++k) {
    value_[k] = std::max(value_[k], std::min(1.0, add_up(h[k], slack)));
    if (tag != kNoTag &&
        (h[k] > best_[k] || (h[k] == best_[k] && tag < best_tag_[k]))) {  // ties: the first
      best_[k] = h[k];
      best_tag_[k] = tag;
    }
  }
  ++members_;
}

void ProfileEnvelope::add(const UpperPld& masses) {
  const std::vector<double> m = splitter_->moments_up(masses, nullptr);
  for (std::size_t o = 0; o < m.size(); ++o) moments_[o] = std::max(moments_[o], m[o]);
  const std::vector<double> h = splitter_->profile_up(masses);
  for (std::size_t k = 0; k < h.size(); ++k) value_[k] = std::max(value_[k], h[k]);
  ++members_;
}

UpperPld ProfileEnvelope::dominating() const {
  const LossGrid& g = splitter_->grid();
  const std::size_t n = g.points();
  // V: the envelope's upper bounds, made non-increasing (E is: a running minimum stays above it).
  std::vector<double> v(value_);
  for (std::size_t k = 1; k < n; ++k) v[k] = std::min(v[k], v[k - 1]);
  // The polyline's slope jumps, in MPFR at 256 bits (checked below, so not directed here).
  constexpr int kBits = 256;
  std::vector<Mp> gamma;
  gamma.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    Mp e(kBits);
    mpfr_exp(e.get(), Mp::grid_point(g.offset + static_cast<std::int64_t>(k), g.scale, kBits).get(),
             MPFR_RNDN);
    gamma.push_back(e);
  }
  auto slope =
      [&](std::size_t k) {  // s_k on [γ_k, γ_(k+1)]; k = n − 1: 0 (constant beyond the top)
        Mp s(kBits), dv(kBits), dg(kBits);
        if (k + 1 >= n) return s;
        mpfr_set_d(dv.get(), v[k + 1], MPFR_RNDN);
        mpfr_sub_d(dv.get(), dv.get(), v[k], MPFR_RNDN);
        mpfr_sub(dg.get(), gamma[k + 1].get(), gamma[k].get(), MPFR_RNDN);
        mpfr_div(s.get(), dv.get(), dg.get(), MPFR_RNDN);
        return s;
      };
  UpperPld out;
  out.scale = g.scale;
  out.offset = g.offset;
  out.mass.assign(n, 0.0);
  out.infinite = v[n - 1];
  Mp before(kBits), jump(kBits);  // s_(−1): the chord from (0, 1) to (γ_0, V_0)
  mpfr_set_d(before.get(), v[0], MPFR_RNDN);
  mpfr_sub_ui(before.get(), before.get(), 1, MPFR_RNDN);
  mpfr_div(before.get(), before.get(), gamma[0].get(), MPFR_RNDN);
  for (std::size_t k = 0; k < n; ++k) {
    const Mp after = slope(k);
    mpfr_sub(jump.get(), after.get(), before.get(), MPFR_RNDU);
    mpfr_mul(jump.get(), jump.get(), gamma[k].get(), MPFR_RNDU);
    out.mass[k] = mpfr_sgn(jump.get()) > 0 ? jump.up() : 0.0;
    before = after;
  }
  // The check: the stored masses' profile, bounded below, against V at every point, from the top
  // down (the recurrence of GridSplitter::profile_up with downward rounding). A shortfall at k
  // goes to the point above it, which raises the profile at k by (1 − e^(−h)) times that mass.
  Mp e;
  const Mp minus_h = Mp::grid_point(-1, g.scale);
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDD);
  const double decay_lo = e.down();  // e^(−h) bounded below
  mpfr_exp(e.get(), minus_h.get(), MPFR_RNDU);
  const double rise_lo = sub_down(1.0, e.up());  // 1 − e^(−h) bounded below
  double w = 0, d = 0;
  for (std::size_t k = n - 1; k-- > 0;) {
    double t = add_down(w, out.mass[k + 1]);
    double dk = add_down(d, mul_down(rise_lo, t));
    const double have = add_down(dk, out.infinite);
    if (have < v[k]) {
      const double extra = div_up(sub_up(v[k], have), rise_lo);
      out.mass[k + 1] = add_up(out.mass[k + 1], extra);
      t = add_down(w, out.mass[k + 1]);
      dk = add_down(d, mul_down(rise_lo, t));
    }
    d = dk;
    w = mul_down(decay_lo, t);
  }
  // H(0) is the total mass, and must be at least E(0) = 1.
  double total = out.infinite;
  for (double m : out.mass) total = add_down(total, m);
  if (total < 1) out.mass[0] = add_up(out.mass[0], sub_up(1.0, total));
  return out;
}

namespace {

/// The grid index of loss v·2^from on the grid of step 2^to, rounded up (down with `up` false);
/// exact where from >= to.
std::int64_t rescale(std::int64_t v, int from, int to, bool up) {
  if (from >= to) return v * (std::int64_t(1) << (from - to));
  const int t = to - from;
  return up ? -((-v) >> t) : v >> t;  // arithmetic shifts: floor division by 2^t
}

/// `a`'s masses on grid `g`, each moved up to the first point at or above its loss.
UpperPld moved_up(const UpperPld& a, const LossGrid& g) {
  UpperPld out;
  out.scale = g.scale;
  out.offset = g.offset;
  out.mass.assign(g.points(), 0.0);
  out.infinite = a.infinite;
  for (std::size_t i = 0; i < a.mass.size(); ++i) {
    if (a.mass[i] == 0) continue;
    const std::int64_t k =
        rescale(a.offset + static_cast<std::int64_t>(i), a.scale, g.scale, true) - g.offset;
    double& to = out.mass[static_cast<std::size_t>(k)];
    to = directed::add_up(to, a.mass[i]);
  }
  return out;
}

}  // namespace

UpperPld dominating_either(const UpperPld& a, const UpperPld& b, const PldLimits& limits) {
  // A certainly disjoint pair (all mass at +∞) already dominates every pair.
  if (a.infinite >= 1) return a;
  if (b.infinite >= 1) return b;
  // The finer step, coarsened while the common span needs more than a few grids' points (a
  // coarser point only moves masses further up). Scales more than 24 octaves apart start there.
  const int finest = std::max(std::min(a.scale, b.scale), std::max(a.scale, b.scale) - 24);
  const std::size_t cap = 4 * std::max<std::size_t>(limits.max_cells, 16);
  LossGrid g;
  for (int scale = finest;; ++scale) {
    g.scale = scale;
    g.offset = std::min(rescale(a.offset, a.scale, scale, false), rescale(b.offset, b.scale, scale, false));
    g.top = std::max(
        rescale(a.offset + static_cast<std::int64_t>(a.mass.size()) - 1, a.scale, scale, true),
        rescale(b.offset + static_cast<std::int64_t>(b.mass.size()) - 1, b.scale, scale, true));
    if (g.points() <= cap) break;
  }
  ProfileEnvelope envelope(std::make_shared<const GridSplitter>(g));
  envelope.add(moved_up(a, g));
  envelope.add(moved_up(b, g));
  return trimmed(envelope.dominating(), limits);
}

}  // namespace corbin
