#include "corbin/privacy/worst_case/dropout_mixture.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

namespace corbin {
namespace {

/// Survivor counts of less weight than this share of the round's are left out of a round's
/// mixture (dropout_round_lowers): δ falls by at most n times this share.
constexpr double kNegligibleCount = 1e-12;

/// `a` with every mass times w in [0, 1] (P-masses rounded down, Q-masses up): the part of a
/// mixture that a dropped remainder leaves, a sub-probability whose δ only falls.
LowerPld scaled(LowerPld a, const Rational& w) {
  PrecisionScope scope(64);
  const Interval x = interval_from(w);
  const double down = std::max(0.0, to_double_down(lower_of(x)));
  const double up = std::min(1.0, to_double_up(upper_of(x)));
  for (double& v : a.p) v = directed::mul_down(v, down);
  for (double& v : a.t) v = directed::mul_up(v, up);
  a.infinite = directed::mul_down(a.infinite, down);
  return a;
}

using namespace directed;

/// An LDPQ client's probability of "+" at c − r and at c + r.
std::pair<Interval, Interval> ldpq_ends(const Interval& alpha) {
  const Interval low = q_low(alpha);
  return {low, Interval(1 - low)};
}

/// One client's (or one pair's) part of the release: how many outputs it sends, how many of
/// them are "+", and the probability of that.
struct Outcome {
  unsigned outputs, plus;
  Interval probability;
};
using Part = std::vector<Outcome>;

/// A law of the release so far on an index that is linear in (outputs, plus): index =
/// first + a·N + b·J. At c = 0, (a, b) = (−1, 2) (the count D = 2J − N); otherwise
/// (S, 1) with S above every J, so that (N, J) is read back as (index / S, index % S).
struct Coding {
  std::int64_t a, b;
  std::int64_t of(const Outcome& o) const { return a * o.outputs + b * o.plus; }
};

/// `law` followed by an independent part, with directed rounding (lower ends down, upper up).
WindowPmf add_part(const WindowPmf& law, const Part& part, const Coding& code) {
  std::int64_t low = code.of(part.front()), high = low;
  for (const Outcome& o : part) {
    low = std::min(low, code.of(o));
    high = std::max(high, code.of(o));
  }
  struct Point {
    std::size_t at;
    double lo, hi;
  };
  std::vector<Point> points;
  const WindowPmf ends = few_point_pmf([&] {
    std::vector<Interval> v;
    for (const Outcome& o : part) v.push_back(o.probability);
    return v;
  }());
  for (std::size_t i = 0; i < part.size(); ++i)
    points.push_back({static_cast<std::size_t>(code.of(part[i]) - low), ends.lo[i], ends.hi[i]});
  WindowPmf out;
  out.first = law.first + low;
  out.lo.assign(law.size() + static_cast<std::size_t>(high - low), 0.0);
  out.hi.assign(out.lo.size(), 0.0);
  for (std::size_t i = 0; i < law.size(); ++i) {
    if (law.hi[i] == 0) continue;
    for (const Point& x : points) {
      out.lo[i + x.at] = add_down(out.lo[i + x.at], mul_down(law.lo[i], x.lo));
      out.hi[i + x.at] = add_up(out.hi[i + x.at], mul_up(law.hi[i], x.hi));
    }
  }
  for (double& h : out.hi) h = std::min(h, 1.0);
  for (double& l : out.lo) l = std::max(l, 0.0);
  return out;
}

/// A client's survival, 1 − p, and its dropping out, p, each enclosed on its own (a p of
/// 10^-100000 stays apart from 0, which 1 minus the survival's enclosure would not).
struct Survival {
  Interval alive, dead;
};
Survival survival_of(const Rational& p) { return {interval_from(Rational(1 - p)), interval_from(p)}; }

/// A Bernoulli(q) output of a client that survives as `s` says.
Part alone(const Interval& q, const Survival& s) {
  return {{0, 0, s.dead}, {1, 1, Interval(s.alive * q)}, {1, 0, Interval(s.alive * (1 - q))}};
}

/// A law on {0, ..., terms} "+" counts of `terms` outputs, taken with probability `weight`.
void add_counts(Part& part, const std::vector<Interval>& law, unsigned terms, const Interval& weight) {
  for (std::size_t i = 0; i < law.size(); ++i)
    part.push_back({terms, static_cast<unsigned>(i), Interval(weight * law[i])});
}

/// Client 1's part (with its partner) in one world, by who of them survived: `law` of the "+"
/// count of its `terms` outputs when every member survives; `qx` when client 1 is alone, `qy` when
/// its partner is. Each status has its probability, the same in both worlds.
struct Status {
  Interval probability;
  Part part;  ///< conditional on the status
};
std::vector<Status> client_statuses(const std::vector<Interval>& law, unsigned terms, bool paired,
                                    const Interval& qx, const Interval& qy, const Survival& s) {
  const Interval &alive = s.alive, &dead = s.dead, certain(1);
  const Part nothing{{0, 0, certain}};
  if (terms == 0) return {{certain, nothing}};  // removed: nothing, dropped or not
  Part full;
  add_counts(full, law, terms, certain);
  if (!paired || terms == 1)  // on LDPQ, or removed from its pair (the partner alone: `law`)
    return {{dead, nothing}, {alive, full}};
  const Interval one(alive * dead);  // client 1 alone, or its partner alone
  std::vector<Status> out{{Interval(dead * dead), nothing}, {Interval(alive * alive), full}};
  for (const Interval& q : {qx, qy}) out.push_back({one, {{1, 1, q}, {1, 0, Interval(1 - q)}}});
  return out;
}

/// The statuses mixed into one part (who survived not seen).
Part mixed(const std::vector<Status>& statuses) {
  Part out;
  for (const Status& st : statuses)
    for (const Outcome& o : st.part)
      out.push_back({o.outputs, o.plus, Interval(st.probability * o.probability)});
  return out;
}

/// The law of the other clients' parts, on `code`.
WindowPmf others_law(const std::vector<std::pair<Part, std::size_t>>& parts, const Coding& code) {
  WindowPmf law;
  law.lo = law.hi = {1.0};
  for (const auto& [part, count] : parts)
    for (std::size_t i = 0; i < count; ++i) law = add_part(law, part, code);
  return law;
}

/// The law of the sum of `count` independent steps of −1, 0 and +1 with probabilities
/// `chance[0]`, `chance[1]`, `chance[2]`, indexed by the sum. One kind of step is counted first,
/// X ~ Bin(count, its chance), then a second among the rest, Y ~ Bin(count − X, its share of
/// them), each on its window; the kinds are taken in the first order whose two probabilities
/// are settled (a dropout of 10^-100000 puts the share of "−" among the rest within 10^-100000
/// of 1, but the zeros' chance is apart from both ends). What the windows leave out is at most
/// X's tail plus the largest of the Y tails (their mixture's).
WindowPmf step_sum(std::uint64_t count, const std::array<Interval, 3>& chance) {
  WindowPmf out;
  out.lo = out.hi = {1.0};
  if (count == 0) return out;
  constexpr std::array<std::array<int, 3>, 3> kOrders{{{2, 0, 1}, {1, 2, 0}, {0, 2, 1}}};  // kinds: first, second, rest
  for (const std::array<int, 3>& order : kOrders) {
    const Interval& t = chance[order[0]];
    const Interval share = lower_of(t) == 1 ? Interval(0) : Interval(chance[order[1]] / (1 - t));
    if (!settled_probability(t) || !settled_probability(share)) continue;
    const auto n = static_cast<std::int64_t>(count);
    const std::int64_t step_first = order[0] - 1, step_second = order[1] - 1, step_rest = order[2] - 1;
    const WindowPmf first = binomial_pmf(count, t);
    out.first = -n;
    out.lo.assign(static_cast<std::size_t>(2 * n + 1), 0.0);
    out.hi.assign(out.lo.size(), 0.0);
    double second_tail = 0;
    for (std::size_t i = 0; i < first.size(); ++i) {
      const std::int64_t x = first.first + static_cast<std::int64_t>(i);
      const WindowPmf second = binomial_pmf(static_cast<std::uint64_t>(n - x), share);
      second_tail = std::max(second_tail, second.tail);
      for (std::size_t j = 0; j < second.size(); ++j) {
        const std::int64_t y = second.first + static_cast<std::int64_t>(j);
        const std::int64_t sum = step_first * x + step_second * y + step_rest * (n - x - y);
        const auto at = static_cast<std::size_t>(sum + n);
        out.lo[at] = add_down(out.lo[at], mul_down(first.lo[i], second.lo[j]));
        out.hi[at] = add_up(out.hi[at], mul_up(first.hi[i], second.hi[j]));
      }
    }
    for (double& h : out.hi) h = std::min(h, 1.0);
    // The window: the sums reached.
    std::size_t from = 0, to = out.hi.size();
    while (from + 1 < to && out.hi[from] == 0) ++from;
    while (to > from + 1 && out.hi[to - 1] == 0) --to;
    out.lo = std::vector<double>(out.lo.begin() + static_cast<std::ptrdiff_t>(from),
                                 out.lo.begin() + static_cast<std::ptrdiff_t>(to));
    out.hi = std::vector<double>(out.hi.begin() + static_cast<std::ptrdiff_t>(from),
                                 out.hi.begin() + static_cast<std::ptrdiff_t>(to));
    out.first += static_cast<std::int64_t>(from);
    out.tail = std::min(1.0, add_up(first.tail, second_tail));
    return out;
  }
  throw undecidable("a dropout round's step probabilities are not separated from 0 or 1 at " +
                    std::to_string(working_precision_bits()) + " bits; raise the working precision");
}

/// others_law where every outcome of every part moves the index by −1, 0 or +1 (remove one at
/// c = 0, where the index is D): each group of alike parts at once (step_sum).
WindowPmf others_law_by_steps(const std::vector<std::pair<Part, std::size_t>>& parts, const Coding& code) {
  WindowPmf law;
  law.lo = law.hi = {1.0};
  for (const auto& [part, count] : parts) {
    std::array<Interval, 3> chance{Interval(0), Interval(0), Interval(0)};  // steps −1, 0, +1
    for (const Outcome& o : part) {
      const std::int64_t step = code.of(o);
      if (step < -1 || step > 1) throw std::logic_error("others_law_by_steps: a step other than −1, 0, +1");
      Interval& c = chance[static_cast<std::size_t>(step + 1)];
      c = Interval(c + o.probability);
    }
    law = convolve(law, step_sum(count, chance));
  }
  return law;
}

/// Remove one off centre: the sum N·c + rα(2J − N) of each (N, J) that either world reaches,
/// the values that may coincide merged (a coarsening), in increasing order.
NeighbouringPmfs merged_by_value(const WindowPmf& with, const WindowPmf& neighbour,
                                 const AccountSetting& s, const Coding& code) {
  struct Cell {
    std::int64_t index;
    Interval value;
  };
  const Interval alpha = s.budget.alpha_interval();
  std::vector<Cell> cells;
  for (const WindowPmf* w : {&with, &neighbour})
    for (std::size_t i = 0; i < w->size(); ++i) {
      if (w->hi[i] == 0) continue;
      const std::int64_t index = w->first + static_cast<std::int64_t>(i);
      const long n = static_cast<long>(index / code.a), j = static_cast<long>(index % code.a);
      const Interval value =
          s.budget.exact()
              ? interval_from(Rational(n * s.center + s.radius * s.budget.alpha_exact() * (2 * j - n)))
              : Interval(n * interval_from(s.center) + interval_from(s.radius) * alpha * (2 * j - n));
      cells.push_back({index, value});
    }
  std::sort(cells.begin(), cells.end(),
            [](const Cell& x, const Cell& y) { return lower_of(x.value) < lower_of(y.value); });
  std::vector<std::pair<std::int64_t, std::size_t>> group_of;  // index -> outcome
  std::size_t groups = 0;
  Real reach;  // the largest upper end in the current group
  for (std::size_t i = 0; i < cells.size(); ++i) {
    // Exact values meet only when equal; enclosures when they overlap.
    if (i == 0 || lower_of(cells[i].value) > reach) {
      ++groups;
      reach = upper_of(cells[i].value);
    } else {
      reach = std::max(reach, Real(upper_of(cells[i].value)));
    }
    group_of.emplace_back(cells[i].index, groups - 1);
  }
  std::sort(group_of.begin(), group_of.end());
  group_of.erase(std::unique(group_of.begin(), group_of.end()), group_of.end());
  NeighbouringPmfs out;
  for (auto [from, to] : {std::pair{&with, &out.p}, std::pair{&neighbour, &out.q}}) {
    to->lo.assign(groups, 0.0);
    to->hi.assign(groups, 0.0);
    for (std::size_t i = 0; i < from->size(); ++i) {
      if (from->hi[i] == 0) continue;
      const std::int64_t index = from->first + static_cast<std::int64_t>(i);
      const std::size_t g =
          std::lower_bound(group_of.begin(), group_of.end(), std::pair{index, std::size_t(0)})->second;
      to->lo[g] = add_down(to->lo[g], from->lo[i]);
      to->hi[g] = std::min(1.0, add_up(to->hi[g], from->hi[i]));
    }
  }
  return out;
}

}  // namespace

namespace {

/// Whether a replace-one mixture of n clients, `other_pairs` of them pairs beside client 1's,
/// keeps N beside J (the release's own law up to which others survived).
bool keeps_survivors(unsigned long n, std::size_t other_pairs) {
  return n <= (other_pairs == 0 ? kMaxCountedLoneClients : kMaxCountedClients);
}

}  // namespace

bool mixture_keeps_survivors(const AccountSetting& s) {
  return s.relation == Neighbour::replace_one && mixture_computable(s) &&
         keeps_survivors(s.n, others_counted(s).pairs);
}

bool mixture_computable(const AccountSetting& s) {
  if (s.relation == Neighbour::remove_one && s.center == 0) return s.n <= kMaxSumClients;
  return s.n <= (s.relation == Neighbour::replace_one ? kMaxMixtureClients : kMaxCountedClients);
}

namespace {

/// `law` with every mass times a weight in [down, up] (lower ends down, upper ends up).
WindowPmf weighted(WindowPmf law, double down, double up) {
  for (double& v : law.lo) v = std::max(0.0, mul_down(v, down));  // an underflow stays 0
  for (double& v : law.hi) v = mul_up(v, up);
  law.tail = mul_up(law.tail, up);
  return law;
}

/// The labelled mixture of components, each a pair of PLDs (P against Q, Q against P) that
/// `build(i)` makes on the threads, with their weights (normalised as the mixture is built).
template <class Build>
std::array<LowerPld, 2> labelled_mixture(const std::vector<Rational>& weights, Build build, const PldLimits& limits) {
  std::vector<std::array<LowerPld, 2>> plds(weights.size());
  const unsigned threads = thread_count(weights.size(), limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t i = t; i < weights.size(); i += threads) plds[i] = build(i);
  });
  std::array<LowerPld, 2> out = plds.front();
  Rational mass = weights.front();
  for (std::size_t i = 1; i < weights.size(); ++i) {
    const Rational w = weights[i] / (mass + weights[i]);
    for (int d = 0; d < 2; ++d) out[d] = mixture(plds[i][d], out[d], w, limits);
    mass += weights[i];
  }
  return out;
}

/// Whether two laws of a count have the same enclosures, outcome by outcome, or (`mirrored`) one
/// has the other's in reverse order ("+" and "−" swapped).
bool same_law(const std::vector<Interval>& a, const std::vector<Interval>& b, bool mirrored) {
  const auto same = [](const Interval& x, const Interval& y) {
    return lower_of(x) == lower_of(y) && upper_of(x) == upper_of(y);
  };
  return a.size() == b.size() && (mirrored ? std::equal(a.begin(), a.end(), b.rbegin(), same)
                                           : std::equal(a.begin(), a.end(), b.begin(), same));
}

/// Whether candidate `cand`'s two laws are those of one of `earlier` with "+" and "−" swapped: that
/// one seen in a mirror (the others' inputs mirrored too), whose lower bounds are the same.
bool mirrors_an_earlier(const AggregateFamily& family, const std::vector<std::size_t>& earlier, std::size_t cand) {
  const ClientCandidate<Interval>& x = family.candidate(cand);
  if (x.role != TargetClient::Role::ldpq) return false;  // a pair's broken part is not compared
  return std::any_of(earlier.begin(), earlier.end(), [&](std::size_t e) {
    const ClientCandidate<Interval>& y = family.candidate(e);
    return y.role == x.role && same_law(y.with, x.with, true) && same_law(y.neighbour, x.neighbour, true);
  });
}

/// Whether the release's exact law is kept (replace one, every client on LDPQ, at most
/// kMaxRevealedClients clients), not the coarsening (status, N, J).
bool revealed_exactly(const AggregateFamily& family) {
  const AccountSetting& s = family.setting();
  return s.relation == Neighbour::replace_one && family.other_pairs() == 0 &&
         s.role == TargetClient::Role::ldpq && s.n <= kMaxRevealedClients;
}

/// Replace one, configuration `c` (every client on LDPQ): the release's exact law, the labelled
/// mixture over (b, K+, K−) of the count J (dropout_mixture.hpp).
NeighbouringPmfs revealed_release(const AggregateFamily& family, const Configuration& c, const Rational& p) {
  const AccountSetting& s = family.setting();
  const Interval alpha = s.budget.alpha_interval(), alive = interval_from(Rational(1 - p));
  const auto [q_low, q_high] = ldpq_ends(alpha);
  const double alive_down = to_double_down(lower_of(alive)), alive_up = to_double_up(upper_of(alive));
  const ClientCandidate<Interval>& cand = family.candidate(c.candidate);
  const std::size_t top = c.top, bottom = family.other_ldpq() - c.top;
  const WindowPmf tops = binomial_pmf(top, alive), bottoms = binomial_pmf(bottom, alive);
  const WindowPmf with = few_point_pmf(cand.with), neighbour = few_point_pmf(cand.neighbour);
  std::vector<WindowPmf> highs, lows;  // the "+" count of k surviving others at c + r, at c − r
  for (std::uint64_t k = 0; k <= top; ++k) highs.push_back(binomial_pmf(k, q_high));
  for (std::uint64_t k = 0; k <= bottom; ++k) lows.push_back(binomial_pmf(k, q_low));
  NeighbouringPmfs out;
  // Client 1 dropped (b = 0): the same in both worlds, one outcome of mass p.
  const WindowPmf dropped = few_point_pmf({interval_from(p)});
  append_aligned(dropped, dropped, out);
  for (std::size_t i = 0; i < tops.size(); ++i)
    for (std::size_t k = 0; k < bottoms.size(); ++k) {
      const auto up = static_cast<std::uint64_t>(tops.first) + i, down = static_cast<std::uint64_t>(bottoms.first) + k;
      const WindowPmf others = convolve(highs[up], lows[down]);
      // The label's weight, P(b = 1, K+ = up, K− = down), enclosed.
      const double w_down = mul_down(mul_down(alive_down, tops.lo[i]), bottoms.lo[k]);
      const double w_up = std::min(1.0, mul_up(mul_up(alive_up, tops.hi[i]), bottoms.hi[k]));
      append_aligned(weighted(convolve(with, others), w_down, w_up),
                     weighted(convolve(neighbour, others), w_down, w_up), out);
    }
  // The survivor counts' windows leave out at most their tails: counted as mass outside.
  out.p.tail = std::min(1.0, add_up(out.p.tail, add_up(tops.tail, bottoms.tail)));
  out.q.tail = std::min(1.0, add_up(out.q.tail, add_up(tops.tail, bottoms.tail)));
  return out;
}

}  // namespace

namespace {

/// How the release is indexed. Replace one: who survived is seen, and with it N, so (status, N, J)
/// is a function of the release; remove one: the sum alone, (N, J) kept only where c ≠ 0 needs it.
struct Indexing {
  bool reveal, counted;
  Coding code;
};
Indexing indexing_of(const AggregateFamily& family) {
  const AccountSetting& s = family.setting();
  const bool reveal = s.relation == Neighbour::replace_one;
  const bool counted = reveal ? keeps_survivors(s.n, family.other_pairs()) : s.center != 0;
  return {reveal, counted, counted ? Coding{static_cast<std::int64_t>(s.n) + 1, 1} : Coding{-1, 2}};
}

/// The other clients' law, `top` of the other LDPQ clients at c + r, the rest at c − r, every
/// other pair at (c, c); the same for every candidate of client 1.
WindowPmf others_of(const AggregateFamily& family, std::size_t top, const Rational& p) {
  const AccountSetting& s = family.setting();
  const Survival survival = survival_of(p);
  const auto [q_low, q_high] = ldpq_ends(s.budget.alpha_interval());
  std::vector<std::pair<Part, std::size_t>> parts;
  parts.emplace_back(alone(q_high, survival), top);
  parts.emplace_back(alone(q_low, survival), family.other_ldpq() - top);
  if (family.other_pairs() > 0) {  // each at (c, c): one sure "+" in full, a fair coin when broken
    const Interval &alive = survival.alive, &dead = survival.dead;
    const Interval both(alive * alive), one(alive * dead), none(dead * dead);
    parts.emplace_back(Part{{2, 1, both}, {1, 1, one}, {1, 0, one}, {0, 0, none}},
                       family.other_pairs());
  }
  // Past kMaxMixtureClients only D is kept (remove one at c = 0): each group's sum on windows.
  const Coding code = indexing_of(family).code;
  return s.n > kMaxMixtureClients ? others_law_by_steps(parts, code) : others_law(parts, code);
}

/// Configuration c's laws given the others' (others_of(family, c.top, p)).
NeighbouringPmfs mixture_given(const AggregateFamily& family, const Configuration& c, const Rational& p,
                               const WindowPmf& others) {
  const AccountSetting& s = family.setting();
  const ClientCandidate<Interval>& cand = family.candidate(c.candidate);
  const Interval alpha = s.budget.alpha_interval();
  const Survival survival = survival_of(p);
  const bool paired = cand.role != TargetClient::Role::ldpq;
  const Interval qx = q_of(cand.x, alpha, s.bits), qx2 = q_of(cand.x2, alpha, s.bits);
  const Interval qy = cand.partner ? q_of(*cand.partner, alpha, s.bits) : Interval(0);
  const auto [reveal, counted, code] = indexing_of(family);
  const std::vector<Status> with =
      client_statuses(cand.with, cand.terms_with, paired, qx, qy, survival);
  const std::vector<Status> neighbour =
      client_statuses(cand.neighbour, cand.terms_neighbour, paired, qx2, qy, survival);
  NeighbouringPmfs out;
  if (reveal) {  // one block per status of client 1 and its partner (the same list in both worlds)
    for (std::size_t i = 0; i < with.size(); ++i) {
      Part a = with[i].part, b = neighbour[i].part;
      for (Outcome& o : a) o.probability = Interval(o.probability * with[i].probability);
      for (Outcome& o : b) o.probability = Interval(o.probability * neighbour[i].probability);
      append_aligned(add_part(others, a, code), add_part(others, b, code), out);
    }
    return out;
  }
  const WindowPmf w = add_part(others, mixed(with), code), v = add_part(others, mixed(neighbour), code);
  if (!counted) {  // at c = 0 the sum is rα·D: D indexes it one to one
    append_aligned(w, v, out);
    return out;
  }
  return merged_by_value(w, v, s, code);
}

/// How a configuration's lower bound scores, each the larger of its two directions: the mass at
/// +∞, δ_lower at ε_p / 2 and δ_lower at 0.
struct Scores {
  double infinite = 0, at_budget = 0, tv = 0;
  void add(const LowerPld& l, const Rational& half_budget) {
    infinite = std::max(infinite, l.infinite);
    at_budget = std::max(at_budget, delta_lower(l, half_budget));
    tv = std::max(tv, delta_lower(l, Rational(0)));
  }
};

/// The configurations kept for a round's lower bound, at most kMaxMixtureConfigurations: the best
/// by each score in turn, then the second best by each, and so on, a score giving none where it is
/// 0 (all mass at +∞ nil: its order says nothing). The query's δ or ε is not known here, so each
/// kind of strength is kept: the mass at +∞ decides a small δ (at n = 2, γ = 0, remove one, dropout
/// 1/10, the pair at (c + r, c + r) gives both "+" with probability 0.27, a sum the neighbour cannot
/// give, so ε(1/4) is infinite, where the configurations best at ε_p / 2 and at 0 gave 1.26).
std::vector<std::size_t> best_configurations(const std::vector<Scores>& all) {
  constexpr std::array kScores = {&Scores::infinite, &Scores::at_budget, &Scores::tv};
  std::array<std::vector<std::size_t>, kScores.size()> orders;
  for (std::size_t k = 0; k < kScores.size(); ++k) {
    orders[k].resize(all.size());
    std::iota(orders[k].begin(), orders[k].end(), 0);
    const auto score = kScores[k];
    std::stable_sort(orders[k].begin(), orders[k].end(), [&](auto i, auto j) { return all[i].*score > all[j].*score; });
  }
  std::vector<std::size_t> kept;
  for (std::size_t r = 0; r < all.size() && kept.size() < kMaxMixtureConfigurations; ++r)
    for (std::size_t k = 0; k < kScores.size(); ++k) {
      const std::size_t i = orders[k][r];
      if (kept.size() < kMaxMixtureConfigurations && all[i].*kScores[k] > 0 &&
          std::find(kept.begin(), kept.end(), i) == kept.end())
        kept.push_back(i);
    }
  return kept;
}

/// A configuration of a dropout round as run, said so and scored, kept in `all` beside its scores
/// (δ at `at` for the middle score).
void keep_scored(AttainedLaws x, const Rational& p, Neighbour relation, const Rational& at, const PldLimits& limits,
                 std::vector<AttainedLaws>& all, std::vector<Scores>& scores) {
  x.words.dropout = dropout_said(p, relation);
  Scores score;
  for (const auto& [a, b] : {std::pair{&x.laws.p, &x.laws.q}, std::pair{&x.laws.q, &x.laws.p}})
    score.add(lower_pld(*a, *b, x.laws.disjoint, limits), at);
  all.push_back(std::move(x));
  scores.push_back(score);
}

}  // namespace

std::string dropout_said(const Rational& p, Neighbour relation) {
  return "every client, client 1 included, drops out with probability " + to_string(p) +
         (relation == Neighbour::replace_one ? "; the server sees who survived and the sum of their outputs"
                                             : "; the release is the survivors' sum");
}

NeighbouringPmfs dropout_mixture(const AggregateFamily& family, const Configuration& c,
                                 const Rational& p) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  const AccountSetting& s = family.setting();
  if (!mixture_computable(s))
    throw invalid_argument("n", std::to_string(s.n), "within a dropout round's mixture's limits");
  if (!family.candidate(c.candidate).attained())
    throw invalid_argument("configuration", "a one-sided limit", "an input some client can hold");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  if (revealed_exactly(family)) return revealed_release(family, c, p);
  return mixture_given(family, c, p, others_of(family, c.top, p));
}

std::vector<AttainedLaws> dropout_mixtures(const AccountSetting& population, const Rational& p,
                                           const PldLimits& limits) {
  if (!mixture_computable(population)) return {};
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const AggregateFamily family(population);
  // The values of j tried: all of them for a small population, else nine spread evenly.
  const std::size_t last = family.other_ldpq();
  std::vector<std::size_t> tops;
  constexpr std::size_t kSpread = 8;
  for (std::size_t i = 0; i <= std::min(last, kSpread); ++i)
    tops.push_back(last <= kSpread ? i : last * i / kSpread);
  std::vector<AttainedLaws> all;
  std::vector<Scores> scores;
  const Rational half_budget = to_rational(midpoint_of(population.budget.eps_interval()).convert_to<double>() / 2);
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  // The others' law of each j, shared by client 1's candidates (past kMaxMixtureClients most of
  // the work).
  const bool revealed = revealed_exactly(family);
  std::vector<WindowPmf> others(revealed ? 0 : tops.size());
  const unsigned threads = thread_count(others.size(), limits.threads);
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t i = t; i < others.size(); i += threads) others[i] = others_of(family, tops[i], p);
  });
  for (std::size_t cand = 0; cand < family.candidates(); ++cand) {
    if (!family.candidate(cand).attained()) continue;
    for (std::size_t t = 0; t < tops.size(); ++t) {
      const Configuration c{cand, tops[t]};
      keep_scored({revealed ? revealed_release(family, c, p) : mixture_given(family, c, p, others[t]), family.describe(c)},
                  p, population.relation, half_budget, limits, all, scores);
    }
  }
  const std::vector<std::size_t> kept = best_configurations(scores);
  std::vector<AttainedLaws> out;
  for (std::size_t i : kept) out.push_back(std::move(all[i]));
  return out;
}

std::vector<AttainedPlds> dropout_round_lowers(const AccountSetting& population, const Rational& p,
                                               std::uint64_t m, const PldLimits& limits) {
  std::vector<AttainedPlds> out;
  if (m < 2 || p <= 0 || p >= 1 || population.relation != Neighbour::replace_one ||
      population.n > kMaxRoundMixtureClients || population.counts)
    return out;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const AggregateFamily family(population);
  if (family.other_pairs() != 0) return out;
  const std::size_t others = family.other_ldpq();
  const Interval alpha = population.budget.alpha_interval();
  const auto [q_low, q_high] = ldpq_ends(alpha);
  // P(client 1 survives and k others do), exactly (survivors.hpp); client 1 dropped (probability
  // p) leaves both worlds alike.
  const Rational alive = Rational(1) - p;
  std::vector<Rational> weight(others + 1);
  for (const SurvivorPopulation& s : survivor_populations({others + 1, 0}, TargetClient::Role::ldpq, p, others + 1))
    weight[s.counts.ldpq - 1] = s.weight;
  const WindowPmf point = few_point_pmf({Interval(1)});
  const LowerPld silent = lower_pld(point, point, false, limits);
  // Counts of surviving others whose weight is below kNegligibleCount of the round's are left
  // out: their mass is dropped (scaled below), which only lowers δ.
  std::vector<std::size_t> counts;
  Rational kept(0);
  for (std::size_t k = 0; k <= others; ++k)
    if (weight[k] >= Rational(alive * to_rational(kNegligibleCount))) {
      counts.push_back(k);
      kept += weight[k];
    }
  const Rational kept_share = kept / alive;
  std::vector<std::size_t> done;
  for (std::size_t cand = 0; cand < family.candidates(); ++cand) {
    const ClientCandidate<Interval>& x = family.candidate(cand);
    if (!x.attained() || x.role != TargetClient::Role::ldpq || x.terms_with != 1 || x.terms_neighbour != 1) continue;
    if (mirrors_an_earlier(family, done, cand)) continue;
    done.push_back(cand);
    for (const bool high : {false, true}) {
      const Interval& q = high ? q_high : q_low;
      // Each kept count's pair composed m times, on the threads (the powers are the cost).
      std::vector<Rational> weights;
      for (std::size_t k : counts) weights.push_back(weight[k]);
      std::array<LowerPld, 2> mixed = labelled_mixture(weights, [&](std::size_t i) {
        const std::size_t k = counts[i];
        // The "+" count of the k surviving others: Binomial(k, q).
        std::vector<Interval> binomial{Interval(1)};
        for (std::size_t added = 0; added < k; ++added) {
          std::vector<Interval> next(binomial.size() + 1, Interval(0));
          for (std::size_t j = 0; j < binomial.size(); ++j) {
            next[j] = Interval(next[j] + binomial[j] * (1 - q));
            next[j + 1] = Interval(next[j + 1] + binomial[j] * q);
          }
          binomial = std::move(next);
        }
        std::vector<Interval> with(k + 2, Interval(0)), neighbour(k + 2, Interval(0));
        for (std::size_t j = 0; j <= k; ++j)
          for (std::size_t b = 0; b < 2; ++b) {
            with[j + b] = Interval(with[j + b] + x.with[b] * binomial[j]);
            neighbour[j + b] = Interval(neighbour[j + b] + x.neighbour[b] * binomial[j]);
          }
        const WindowPmf P = few_point_pmf(with), Q = few_point_pmf(neighbour);
        return std::array<LowerPld, 2>{power(lower_pld(P, Q, false, limits), m, limits),
                                       power(lower_pld(Q, P, false, limits), m, limits)};
      }, limits);
      for (int d = 0; d < 2; ++d) mixed[d] = scaled(mixed[d], kept_share);
      for (int d = 0; d < 2; ++d) mixed[d] = mixture(silent, mixed[d], p, limits);
      ConfigurationWords words = family.describe(Configuration{cand, high ? others : 0});
      words.dropout = "every client, client 1 included, drops out with probability " + to_string(p) +
                      ", once for the round's " + std::to_string(m) +
                      " coordinates; the server sees who survived and the sums";
      out.push_back({mixed[0], mixed[1], std::move(words)});
    }
  }
  return out;
}

std::vector<AttainedPlds> dropout_ladder_lowers(const AccountSetting& population, const Rational& p,
                                                std::uint64_t m, const PldLimits& limits) {
  return dropout_ladder_lowers(population, p, std::vector<std::uint64_t>{m}, limits).front();
}

std::vector<std::vector<AttainedPlds>> dropout_ladder_lowers(const AccountSetting& population, const Rational& p,
                                                             const std::vector<std::uint64_t>& uses,
                                                             const PldLimits& limits) {
  std::vector<std::vector<AttainedPlds>> out(uses.size());
  if (uses.empty() || std::find(uses.begin(), uses.end(), 0) != uses.end() || p <= 0 || p >= 1 ||
      population.relation != Neighbour::replace_one || population.counts)
    return out;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const AggregateFamily family(population);
  const Interval alpha = population.budget.alpha_interval(), half = Interval(1) / 2;
  const auto [q_low, q_high] = ldpq_ends(alpha);
  const Rational alive = Rational(1) - p;
  // Rungs of less weight than kNegligibleCount are left out, their mass dropped (δ only falls).
  std::vector<SurvivorCeiling> rungs;
  Rational kept(0);
  for (const SurvivorCeiling& r : survivor_ceilings(family.other_ldpq(), family.other_pairs(), p))
    if (r.weight >= to_rational(kNegligibleCount)) {
      rungs.push_back(r);
      kept += r.weight;
    }
  // Each rung's law of the others' "+" count (complete pairs' sure "+" subtracted: the server sees
  // who survived), for the others at c − r and at c + r.
  std::array<std::vector<WindowPmf>, 2> others;
  for (const SurvivorCeiling& r : rungs)
    for (int high = 0; high < 2; ++high)
      others[high].push_back(convolve(binomial_pmf(r.lone, high ? q_high : q_low), binomial_pmf(r.broken, half)));
  const WindowPmf point = few_point_pmf({Interval(1)});
  const LowerPld silent = lower_pld(point, point, false, limits);
  // Client 1's labelled parts, the same in every rung: its weight and its two laws of the "+" count.
  struct Part {
    Rational weight;
    std::vector<Interval> with, neighbour;
  };
  const auto parts_of = [&](const ClientCandidate<Interval>& x) {
    if (x.role == TargetClient::Role::ldpq) return std::vector<Part>{{alive, x.with, x.neighbour}};
    // Its partner survived: the pair runs CorBinQ. It dropped: client 1 alone on LDPQ at its own
    // input. Client 1 dropped and its partner alive: one law in both worlds, silent below.
    const Interval qx = q_of(x.x, alpha, population.bits), qx2 = q_of(x.x2, alpha, population.bits);
    return std::vector<Part>{{alive * alive, x.with, x.neighbour},
                             {alive * p, {Interval(1 - qx), qx}, {Interval(1 - qx2), qx2}}};
  };
  // One configuration's labelled mixture over (rung, part), each label's m coordinates composed.
  const auto mixed = [&](const std::vector<Part>& parts, int high, std::uint64_t uses) {
    struct Component {
      Rational weight;
      const Part* part;
      std::size_t rung;
    };
    std::vector<Component> components;
    for (std::size_t r = 0; r < rungs.size(); ++r)
      for (const Part& part : parts) components.push_back({part.weight * rungs[r].weight, &part, r});
    std::vector<Rational> weights;
    for (const Component& c : components) weights.push_back(c.weight);
    std::array<LowerPld, 2> out = labelled_mixture(weights, [&](std::size_t i) {
      const Component& c = components[i];
      const WindowPmf& rest = others[high][c.rung];
      NeighbouringPmfs l;
      append_aligned(convolve(few_point_pmf(c.part->with), rest), convolve(few_point_pmf(c.part->neighbour), rest), l);
      std::array<LowerPld, 2> two;
      for (int d = 0; d < 2; ++d) {
        const LowerPld one = d == 0 ? lower_pld(l.p, l.q, false, limits) : lower_pld(l.q, l.p, false, limits);
        two[d] = uses == 1 ? one : power(one, uses, limits);
      }
      return two;
    }, limits);
    // The rungs left out: their mass dropped; then client 1 dropped, silent.
    for (int d = 0; d < 2; ++d) out[d] = mixture(silent, scaled(out[d], kept), p, limits);
    return out;
  };
  // Configurations: each attained candidate whose parts no earlier one has (the same, or seen in
  // a mirror, with the others' input mirrored too), and each input of the others.
  struct Scored {
    std::size_t candidate;
    int high;
    std::array<LowerPld, 2> one_use;
  };
  std::vector<Scored> all;
  std::vector<Scores> scores;
  std::vector<std::vector<Part>> seen;
  const Rational half_budget = to_rational(midpoint_of(population.budget.eps_interval()).convert_to<double>() / 2);
  for (std::size_t cand = 0; cand < family.candidates(); ++cand) {
    if (!family.candidate(cand).attained()) continue;
    const std::vector<Part> parts = parts_of(family.candidate(cand));
    const bool repeated = std::any_of(seen.begin(), seen.end(), [&](const std::vector<Part>& earlier) {
      for (const bool mirror : {false, true}) {
        bool all_equal = earlier.size() == parts.size();
        for (std::size_t i = 0; all_equal && i < parts.size(); ++i)
          all_equal = same_law(earlier[i].with, parts[i].with, mirror) &&
                      same_law(earlier[i].neighbour, parts[i].neighbour, mirror);
        if (all_equal) return true;
      }
      return false;
    });
    if (repeated) continue;
    seen.push_back(parts);
    // With no other LDPQ clients both inputs of the others are one configuration.
    for (int high = 0; high < (family.other_ldpq() > 0 ? 2 : 1); ++high) {
      Scored x{cand, high, mixed(parts, high, 1)};
      Scores score;
      for (const LowerPld& l : x.one_use) score.add(l, half_budget);
      all.push_back(std::move(x));
      scores.push_back(score);
    }
  }
  const std::vector<std::size_t> kept_configurations = best_configurations(scores);
  for (std::size_t u = 0; u < uses.size(); ++u) {
    const std::uint64_t m = uses[u];
    for (std::size_t i : kept_configurations) {
      const Scored& x = all[i];
      const std::array<LowerPld, 2> plds =
          m == 1 ? x.one_use : mixed(parts_of(family.candidate(x.candidate)), x.high, m);
      ConfigurationWords words = family.describe(Configuration{x.candidate, x.high ? family.other_ldpq() : 0});
      words.dropout = "every client, client 1 included, drops out with probability " + to_string(p) +
                      (m > 1 ? ", once for the round's " + std::to_string(m) + " coordinates" : std::string()) +
                      "; the server sees who survived and the sum" + (m > 1 ? "s" : "") +
                      "; bounded below by a ladder of survivor counts at or above the true ones (" +
                      std::to_string(rungs.size()) + " rungs: more survivors only add noise)";
      out[u].push_back({plds[0], plds[1], std::move(words)});
    }
  }
  return out;
}

std::vector<AttainedLaws> lone_dropout_mixtures(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                                Neighbour relation, const Rational& p, const PldLimits& limits) {
  if (p <= 0 || p >= 1) throw invalid_argument("dropout", to_string(p), "in (0, 1)");
  if (n < 2 || n > kMaxMixtureClients) return {};
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const bool removed = relation == Neighbour::remove_one;
  // Under remove one each client's law with its dropout (the sum alone released); under replace
  // one the laws as sent, labelled by who survived.
  const std::optional<std::vector<WindowPmf>> laws = lattice_laws(extremes, n, removed ? p : Rational(0));
  if (!laws) return {};
  const std::size_t kinds = extremes.size(), others = n - 1;
  const Interval alive = interval_from(Rational(1 - p));
  const double alive_down = to_double_down(lower_of(alive)), alive_up = to_double_up(upper_of(alive));
  // Each extreme's law summed over 0 to n − 1 clients.
  std::vector<std::vector<WindowPmf>> powers(kinds);
  for (std::size_t e = 0; e < kinds; ++e) {
    if (!extremes[e].attained) continue;
    powers[e].push_back(few_point_pmf({Interval(1)}));
    for (std::size_t k = 1; k <= others; ++k) powers[e].push_back(convolve(powers[e].back(), (*laws)[e]));
  }
  // The others' inputs: j at one attained extreme and the rest at a lower one, j over all values
  // for a few others, else nine spread evenly (as dropout_mixtures' tops). Under replace one the
  // survivors of each group are seen, so a configuration costs j·(n − 1 − j) labels: split only up
  // to kMaxRevealedClients clients, past it every other client at one extreme.
  struct Placement {
    std::size_t high, low, at_high;  ///< at_high others at extremes[high], the rest at extremes[low]
  };
  std::vector<Placement> placements;
  constexpr std::size_t kSpread = 8;
  const bool split = removed || n <= kMaxRevealedClients;
  for (std::size_t hi = 0; hi < kinds; ++hi) {
    if (!extremes[hi].attained) continue;
    placements.push_back({hi, hi, others});
    if (!split) continue;
    for (std::size_t lo = 0; lo < hi; ++lo) {
      if (!extremes[lo].attained) continue;
      for (std::size_t i = 1; i < std::min<std::size_t>(others, kSpread); ++i)
        placements.push_back({hi, lo, others <= kSpread ? i : others * i / kSpread});
    }
  }
  const WindowPmf dropped = few_point_pmf({interval_from(p)});
  const Rational scored_at(1, 2);  // the room's budget is not known here: δ at ε = 1/2 instead of ε_p / 2
  std::vector<AttainedLaws> all;
  std::vector<Scores> scores;
  for (const Placement& at : placements) {
    const std::size_t j = at.at_high, rest = others - j;
    // Under replace one, how many of each group survive (windows, their tails counted outside).
    const WindowPmf highs = binomial_pmf(j, alive), lows = binomial_pmf(rest, alive);
    const WindowPmf sum_removed = removed ? convolve(powers[at.high][j], powers[at.low][rest]) : WindowPmf{};
    for (std::size_t x = 0; x < kinds; ++x) {
      if (!extremes[x].attained) continue;
      for (std::size_t y = 0; y < (removed ? 1 : kinds); ++y) {
        if (!removed && (y == x || !extremes[y].attained)) continue;
        AttainedLaws m;
        if (removed) {
          append_aligned(convolve(sum_removed, (*laws)[x]), sum_removed, m.laws);
        } else {
          append_aligned(dropped, dropped, m.laws);  // client 1 dropped: the same in both worlds
          for (std::size_t u = 0; u < highs.size(); ++u)
            for (std::size_t v = 0; v < lows.size(); ++v) {
              const WindowPmf survivors = convolve(powers[at.high][static_cast<std::size_t>(highs.first) + u],
                                                   powers[at.low][static_cast<std::size_t>(lows.first) + v]);
              const double w_down = mul_down(mul_down(alive_down, highs.lo[u]), lows.lo[v]);
              const double w_up = std::min(1.0, mul_up(mul_up(alive_up, highs.hi[u]), lows.hi[v]));
              append_aligned(weighted(convolve(survivors, (*laws)[x]), w_down, w_up),
                             weighted(convolve(survivors, (*laws)[y]), w_down, w_up), m.laws);
            }
          const double outside = add_up(highs.tail, lows.tail);
          m.laws.p.tail = std::min(1.0, add_up(m.laws.p.tail, outside));
          m.laws.q.tail = std::min(1.0, add_up(m.laws.q.tail, outside));
        }
        m.words.client_1 = "client 1 alone at " + extremes[x].input;
        m.words.replaced_by = removed ? "client 1 removed" : "client 1 at " + extremes[y].input;
        if (removed) m.words.inputs = extremes[x].input + " | removed";
        m.words.others_ldpq = "of the other " + std::to_string(others) + " clients " + std::to_string(j) + " at " +
                              extremes[at.high].input +
                              (rest > 0 ? ", " + std::to_string(rest) + " at " + extremes[at.low].input : "");
        m.words.others_pairs = "no pairs";
        keep_scored(std::move(m), p, relation, scored_at, limits, all, scores);
      }
    }
  }
  std::vector<AttainedLaws> out;
  for (std::size_t i : best_configurations(scores)) out.push_back(std::move(all[i]));
  return out;
}

}  // namespace corbin
