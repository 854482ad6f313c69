#include "corbin/privacy/worst_case/counted_remove.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/privacy/pld/curve.hpp"
#include "corbin/privacy/pld/meet.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

namespace corbin {

using namespace directed;

namespace {

/// Labels lighter than this (both ways) go to +∞ whole.
constexpr double kNegligibleLabel = 1e-30;

/// An enclosure as two doubles.
struct Bounds {
  double lo, hi;
};
Bounds bounds_of(const Interval& x) { return {to_double_down(lower_of(x)), to_double_up(upper_of(x))}; }

/// ln(1 + e^x), rounded up a little (a grid's end only).
double log1p_exp(double x) { return x > 40 ? x + 1e-12 : std::log1p(std::exp(x)) * (1 + 1e-12); }

/// One label N = k: its weights and the replace-one pair's curves it uses (none: all at +∞).
struct Label {
  unsigned long k;
  Bounds a, c, b;  ///< q·b_(k−1), p·b_k, b_k
  const UpperPair* pair;
  std::shared_ptr<const CurveBound> forward, backward;
};

}  // namespace

std::vector<CountedLabel> counted_labels(const std::vector<Interval>& b, const Rational& p) {
  const Interval pi(interval_from(p)), qi(interval_from(Rational(1 - p)));
  std::vector<CountedLabel> out;
  for (unsigned long k = 1; k < b.size(); ++k) {
    CountedLabel l{k, Interval(qi * b[k - 1]), Interval(pi * b[k]), b[k], false};
    l.light = upper_of(Interval(l.a + l.c)) < kNegligibleLabel && upper_of(l.b) < kNegligibleLabel;
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<unsigned long> counted_populations(unsigned long n, const Rational& p) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  std::vector<unsigned long> labels;
  for (const CountedLabel& l : counted_labels(others_surviving(n, p), p))
    if (!l.light) labels.push_back(l.k);
  if (labels.size() <= kMaxCountedPopulations) return labels;
  // Evenly in ln k: a label's pair is its population's or a smaller one's, the loss from a
  // population a few per cent short of the label being small.
  std::vector<unsigned long> out;
  const double first = std::log(static_cast<double>(labels.front())),
               last = std::log(static_cast<double>(labels.back()));
  for (std::size_t i = 0; i < kMaxCountedPopulations; ++i) {
    const double at = first + (last - first) * static_cast<double>(i) / static_cast<double>(kMaxCountedPopulations - 1);
    const auto k = std::clamp(static_cast<unsigned long>(std::floor(std::exp(at) + 1e-9)), labels.front(), labels.back());
    if (out.empty() || out.back() < k) out.push_back(k);
  }
  return out;
}

UpperPair counted_remove_plds(const std::map<unsigned long, UpperPair>& replaced, unsigned long n, const Rational& p,
                              const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2) throw invalid_argument("n", std::to_string(n), "at least 2");
  const Interval pi(interval_from(p)), qi(interval_from(Rational(1 - p)));
  const std::vector<Interval> b = others_surviving(n, p);
  const Bounds pb = bounds_of(pi), b0 = bounds_of(b[0]), all_with = bounds_of(Interval(qi * b[n - 1]));
  // The labels 1 <= k <= n − 1; the light ones' weights to +∞ (H_γ is at most a law's mass).
  std::vector<Label> labels;
  double light_with = 0, light_without = 0;
  std::map<const UpperPair*, std::pair<std::shared_ptr<const CurveBound>, std::shared_ptr<const CurveBound>>> curves;
  for (const CountedLabel& w : counted_labels(b, p)) {
    const unsigned long k = w.k;
    const Bounds with = bounds_of(Interval(w.a + w.c)), without = bounds_of(w.b);
    auto pair = replaced.upper_bound(k);
    if (w.light || pair == replaced.begin()) {
      light_with = add_up(light_with, with.hi);
      light_without = add_up(light_without, without.hi);
      continue;
    }
    --pair;
    auto& curve = curves[&pair->second];
    if (!curve.first)
      curve = {std::make_shared<const CurveBound>(pair->second.forward),
               std::make_shared<const CurveBound>(pair->second.backward)};
    labels.push_back({k, bounds_of(w.a), bounds_of(w.c), without, &pair->second, curve.first, curve.second});
  }
  // The grids: the finest step of the pairs used; forward from ln p up to the largest label's
  // top loss mapped (ln p + ln(1 + (k/(n − k))e^y)), backward from the lowest label's bottom
  // mapped (−ln p − ln(1 + (k/(n − k))e^(−y))) up to −ln p.
  const double log_p = std::log(to_double(p));
  int scale = 0;
  double forward_top = log_p, backward_bottom = -log_p;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const Label& l = labels[i];
    const double ratio = std::log(static_cast<double>(l.k) / static_cast<double>(n - l.k));
    scale = i == 0 ? std::min(l.pair->forward.scale, l.pair->backward.scale)
                   : std::min({scale, l.pair->forward.scale, l.pair->backward.scale});
    forward_top = std::max(forward_top, log_p + log1p_exp(ratio + top_loss(l.pair->forward)));
    backward_bottom =
        std::min(backward_bottom, -log_p - log1p_exp(ratio - loss_above_mass(l.pair->backward, kNegligibleLabel)));
  }
  if (labels.empty()) scale = -6;
  const auto clamp_loss = [](double y) { return std::clamp(y, -kMaxMeetLoss, kMaxMeetLoss); };
  const double step = std::ldexp(1.0, scale);
  // The round's curve at γ >= t, bounded above: each label's (the header), the empty sum's, the
  // everyone-survived label's, the light labels'.
  const auto forward = [&](double t) {
    double sum = add_up(add_up(all_with.hi, light_with), mul_up(b0.hi, std::max(0.0, sub_up(pb.hi, t))));
    for (const Label& l : labels) {
      const double rise = sub_down(mul_down(t, l.b.lo), l.c.hi);  // γb − c, bounded below
      sum = add_up(sum, rise <= 0 ? sub_up(l.a.hi, rise) : mul_up(l.a.hi, l.forward->at(div_down(rise, l.a.hi))));
    }
    return std::min(1.0, sum);
  };
  const auto backward = [&](double t) {
    double sum = add_up(light_without, mul_up(b0.hi, std::max(0.0, sub_up(1.0, mul_down(t, pb.lo)))));
    for (const Label& l : labels) {
      const double room = sub_up(l.b.hi, mul_down(t, l.c.lo)), least = sub_down(l.b.lo, mul_up(t, l.c.hi));
      if (room <= 0) continue;
      sum = add_up(sum, least <= 0 ? room : mul_up(room, l.backward->at(div_down(mul_down(t, l.a.lo), room))));
    }
    return std::min(1.0, sum);
  };
  return {pld_under_curve(forward, clamp_loss(log_p - step), clamp_loss(forward_top + step), scale, limits),
          pld_under_curve(backward, clamp_loss(backward_bottom - step), clamp_loss(-log_p + step), scale, limits)};
}

Accountant counted_remove_accountant(const std::map<unsigned long, UpperPair>& replaced, unsigned long n,
                                     const Rational& p, std::uint64_t uses, const PldLimits& limits) {
  const UpperPair counted = counted_remove_plds(replaced, n, p, limits);
  const WindowPmf point = few_point_pmf({Interval(1)});
  const LowerPld none = lower_pld(point, point, false, limits);  // no lower end: upper_only below
  return Accountant::from_plds(counted.forward, counted.backward, none, none, AttainedBy{}, Neighbour::remove_one,
                               limits, uses)
      .upper_only();
}

}  // namespace corbin
