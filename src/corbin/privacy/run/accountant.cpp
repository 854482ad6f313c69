#include "corbin/privacy/run/accountant.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/pld/envelope.hpp"
#include "corbin/privacy/pld/loss_grid.hpp"
#include "corbin/privacy/pld/meet.hpp"
#include "corbin/privacy/pld/power_memo.hpp"
#include "corbin/privacy/pld/threads.hpp"
#include "corbin/privacy/run/choice_plan.hpp"

namespace corbin {

namespace {

/// Lower bounds from at most this many configurations, each composed alike.
constexpr std::size_t kMaxLowerConfigurations = 4;
/// Compositions longer than this compose only the kComposedLowers most promising sequences.
constexpr std::uint64_t kFewCompositions = 64;
constexpr std::size_t kComposedLowers = 2;
/// Mixtures of two sequences are composed among this many of the best sequences alone.
constexpr std::size_t kMixedUses = 3;

/// The mean and standard deviation of the loss under P, over the atoms of finite loss (the mass
/// at +∞ apart): how fast a composition of it grows.
std::pair<double, double> loss_moments(const LowerPld& a) {
  double mass = 0, first = 0, second = 0;
  for (std::size_t i = 0; i < a.p.size(); ++i) {
    mass += a.p[i];
    first += a.p[i] * a.y[i];
    second += a.p[i] * a.y[i] * a.y[i];
  }
  if (mass <= 0) return {0, 0};
  const double mean = first / mass;
  return {mean, std::sqrt(std::max(0.0, second / mass - mean * mean))};
}
/// The envelope levels at whose crossing the largest attained configuration is kept for the
/// lower bound (a k-fold composition is decided near loss 0, a single use near its δ).
constexpr double kLowerLevels[] = {1e-1, 1e-2, 1e-5, 1e-9};

std::size_t tag_of(const Configuration& c, std::size_t candidates) {
  return c.top * candidates + c.candidate;
}
Configuration configuration_of(std::size_t tag, std::size_t candidates) {
  return {tag % candidates, tag / candidates};
}

/// The attained members that are largest at the chosen points of the envelope(s).
std::vector<std::size_t> lower_tags(const std::vector<const ProfileEnvelope*>& envelopes) {
  std::vector<std::size_t> tags;
  auto keep = [&](std::size_t tag) {
    if (tag != ProfileEnvelope::kNoTag && std::find(tags.begin(), tags.end(), tag) == tags.end() &&
        tags.size() < kMaxLowerConfigurations)
      tags.push_back(tag);
  };
  for (const ProfileEnvelope* e : envelopes) keep(e->most_disjoint());  // δ at ε = ∞
  for (const ProfileEnvelope* e : envelopes) {
    const LossGrid& g = e->grid();
    const std::size_t n = g.points();
    // The first point above loss 0, where a long composition is decided.
    for (std::size_t k = 0; k < n; ++k)
      if (g.offset + static_cast<std::int64_t>(k) > 0) {
        keep(e->attained_by(k));
        break;
      }
    for (double level : kLowerLevels)
      for (std::size_t k = 0; k < n; ++k)
        if (e->value(k) < level) {
          keep(e->attained_by(k > 0 ? k - 1 : 0));
          break;
        }
  }
  return tags;
}

/// A lower bound's configuration as used in direction `d` of its PLDs: 0 as described, 1 with
/// the two datasets the other way round (every part's order flipped). A composed lower bound has
/// one PLD, direction 0, whose parts already say their order.
AttainedBy in_direction(AttainedBy by, std::size_t d) {
  if (d == 1)
    for (std::size_t i = 0; i < by.reversed.size(); ++i) by.reversed[i] = !by.reversed[i];
  return by;
}

/// Whether two attained sequences put client 1 at the same inputs, in the same order, use by use.
bool same_client_1(const AttainedBy& a, const AttainedBy& b) {
  if (a.parts.size() != b.parts.size()) return false;
  for (std::size_t i = 0; i < a.parts.size(); ++i)
    if (a.repeats[i] != b.repeats[i] || a.reversed[i] != b.reversed[i] || a.parts[i].inputs.empty() ||
        a.parts[i].inputs != b.parts[i].inputs)
      return false;
  return true;
}

UpperPld certainly_disjoint() {
  UpperPld out;
  out.mass = {0.0};
  out.infinite = 1;
  return out;
}

}  // namespace

Accountant::Accountant(const WindowPmf& p, const WindowPmf& q, bool disjoint,
                       const PldLimits& limits)
    : limits_(limits) {
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  upper_[0] = upper_pld(p, q, disjoint, limits);
  upper_[1] = upper_pld(q, p, disjoint, limits);
  moments_[0] = moments_[1] = unbounded_moments();  // a window's tail has no loss bound here
  lower_.push_back(
      Lower{{lower_pld(p, q, disjoint, limits), lower_pld(q, p, disjoint, limits)}, std::nullopt});
  mixes_ = true;  // a pair of laws on its own: both orders may be used, as under replace one
}

Accountant::Accountant(const AccountSetting& s, const PldLimits& limits)
    : limits_(limits), mixes_(s.relation == Neighbour::replace_one) {
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  const AggregateFamily family(s);
  const std::size_t candidates = family.candidates();
  const auto attained = [&](const Configuration& c) {
    AttainedBy by;
    by.parts.push_back(family.describe(c));
    by.repeats.push_back(1);
    by.reversed.push_back(false);
    return by;
  };
  moments_[0] = moments_[1] = unbounded_moments();
  if (family.disjoint()) {  // every configuration: δ(ε) = 1 for all ε, in both directions
    upper_[0] = upper_[1] = certainly_disjoint();
    // Every candidate attains it: each is listed, so that a mixture over client 1's role finds
    // one with client 1 at the same inputs in the other role (Accountant::mixture).
    for (std::size_t candidate = 0; candidate < candidates; ++candidate) {
      if (!family.candidate(candidate).attained()) continue;
      const NeighbouringPmfs laws = family.laws(Configuration{candidate, 0});
      lower_.push_back(
          Lower{{lower_pld(laws.p, laws.q, true, limits), lower_pld(laws.q, laws.p, true, limits)},
                attained(Configuration{candidate, 0})});
    }
    configurations_ = family_size_ = candidates * (family.other_ldpq() + 1);
    return;
  }
  // The grid, from the configurations at both ends and in the middle of j.
  std::vector<NeighbouringPmfs> sampled;
  const std::size_t last = family.other_ldpq();
  for (std::size_t top : {std::size_t(0), last / 2, last}) {
    const WindowPmf others = family.others(top);
    for (std::size_t c = 0; c < candidates; ++c) sampled.push_back(family.laws(others, c));
  }
  std::vector<std::pair<const WindowPmf*, const WindowPmf*>> samples;
  for (const NeighbouringPmfs& x : sampled) {
    samples.emplace_back(&x.p, &x.q);
    samples.emplace_back(&x.q, &x.p);
  }
  const LossGrid grid = grid_for(samples, limits, 1.0 / 64);
  sampled.clear();
  // Replace one: the candidates come in both orders (client 1 at x then x2, and x2 then x), so
  // one envelope of P against Q covers both directions. Remove one: each direction its own.
  const bool both = s.relation == Neighbour::remove_one;
  const auto splitter = std::make_shared<const GridSplitter>(grid);
  std::vector<std::vector<double>> tails;  // per candidate: e^((λ−1) L) for its loss bound L
  for (std::size_t c = 0; c < candidates; ++c)
    tails.push_back(GridSplitter::tail_factors(family.max_loss(c)));
  // The members, spread over threads (each its own envelopes, merged after: the maxima and the
  // attained members' ties do not depend on the order).
  const std::vector<TopRange> ranges = family.tops(limits);
  const unsigned threads = thread_count(ranges.size(), limits.threads);
  std::vector<ProfileEnvelope> forward(threads, ProfileEnvelope(splitter)), backward;
  if (both) backward.assign(threads, ProfileEnvelope(splitter));
  run_on_threads(threads, [&](unsigned t) {
    for (std::size_t i = t; i < ranges.size(); i += threads) {
      const TopRange& range = ranges[i];
      double slack = 0;
      const WindowPmf others = range.single() ? family.others(range.first) : family.relaxed_others(range, slack);
      for (std::size_t c = 0; c < candidates; ++c) {
        const NeighbouringPmfs laws = family.laws(others, c);
        const std::size_t tag = range.single() && family.candidate(c).attained()
                                    ? tag_of(Configuration{c, range.first}, candidates)
                                    : ProfileEnvelope::kNoTag;
        forward[t].add(laws.p, laws.q, laws.disjoint, tag, slack, &tails[c]);
        if (both) backward[t].add(laws.q, laws.p, laws.disjoint, tag, slack);
      }
    }
  });
  for (unsigned t = 1; t < threads; ++t) {
    forward[0].merge(forward[t]);
    if (both) backward[0].merge(backward[t]);
  }
  for (const TopRange& range : ranges) {
    if (range.single())
      configurations_ += candidates;
    else
      blocks_ += candidates;
  }
  family_size_ = candidates * (family.other_ldpq() + 1);
  upper_[0] = trimmed(forward[0].dominating(), limits);
  upper_[1] = both ? trimmed(backward[0].dominating(), limits) : upper_[0];
  // Replace one lists each candidate in both orders, so its loss bounds cover both directions
  // (remove one has none: AggregateFamily::max_loss).
  double largest = 0;
  for (std::size_t c = 0; c < candidates; ++c) largest = std::max(largest, family.max_loss(c));
  max_loss_[0] = max_loss_[1] = largest;
  if (!both) moments_[0] = moments_[1] = forward[0].log_moments();  // remove one: no loss bound
  symmetric_ = !both;  // replace one: one envelope covers both directions
  std::vector<const ProfileEnvelope*> envelopes{&forward[0]};
  if (both) envelopes.push_back(&backward[0]);
  auto single = std::make_shared<SingleUse>();
  single->family = std::make_shared<const AggregateFamily>(family);
  for (const ProfileEnvelope* e : envelopes) {
    SingleUse::Envelope x;
    x.grid = e->grid();
    for (std::size_t k = 0; k < x.grid.points(); ++k) {
      x.value.push_back(e->value(k));
      x.tag.push_back(e->attained_by(k));
    }
    single->envelopes.push_back(std::move(x));
  }
  // The family member by member, for the worst case over the adversary's actual choices
  // (choice_plan.hpp), where every value of j is a member of its own (no block); listed by
  // candidate, then j, so that neighbours in the list are alike (the program bounds runs of them
  // together where they are many).
  if (std::all_of(ranges.begin(), ranges.end(), [](const TopRange& r) { return r.single(); })) {
    std::vector<Configuration> members;
    for (std::size_t c = 0; c < candidates; ++c)
      for (const TopRange& r : ranges) members.push_back({c, r.first});
    std::vector<UseFamily> directions{UseFamily(single->family, members, false)};
    if (both) directions.emplace_back(single->family, members, true);
    plan_ = std::make_shared<const ChoicePlan>(std::move(directions), limits);
  }
  singles_.push_back(std::move(single));
  for (std::size_t tag : lower_tags(envelopes)) {
    const Configuration c = configuration_of(tag, candidates);
    const NeighbouringPmfs laws = family.laws(c);
    lower_.push_back(Lower{{lower_pld(laws.p, laws.q, laws.disjoint, limits),
                            lower_pld(laws.q, laws.p, laws.disjoint, limits)},
                           attained(c)});
  }
}

AttainedPlds attained_plds(const AttainedLaws& l, const PldLimits& limits) {
  return {lower_pld(l.laws.p, l.laws.q, l.laws.disjoint, limits), lower_pld(l.laws.q, l.laws.p, l.laws.disjoint, limits),
          l.words};
}

Accountant Accountant::silent(const PldLimits& limits) {
  const WindowPmf point = few_point_pmf({Interval(1)});
  Accountant out(point, point, false, limits);
  out.max_loss_[0] = out.max_loss_[1] = 0;  // the same law in both worlds
  // Its one member, so that a mixture with a family keeps the adversary's choices (mixture).
  AttainedLaws member{NeighbouringPmfs{point, point, false}, ConfigurationWords{}, 0.0, true};
  member.words.client_1 = "client 1 silent";
  const auto list = std::make_shared<const std::vector<AttainedLaws>>(std::vector<AttainedLaws>{member});
  out.plan_ = std::make_shared<const ChoicePlan>(std::vector<UseFamily>{UseFamily(list, false)}, limits);
  return out;
}

Accountant Accountant::from_family(const std::vector<AttainedLaws>& members, bool both_orders,
                                   const PldLimits& limits) {
  if (limits.max_cells < 16)
    throw invalid_argument("max_cells", std::to_string(limits.max_cells), "at least 16");
  if (members.empty()) throw invalid_argument("family", "empty", "at least one configuration");
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Accountant out;
  out.limits_ = limits;
  // Both orders listed: a configuration's pair may be used either way round from use to use
  // (replace one); otherwise each order is one for the whole run (remove one).
  out.mixes_ = both_orders;
  out.moments_[0] = out.moments_[1] = unbounded_moments();
  std::vector<std::pair<const WindowPmf*, const WindowPmf*>> samples;
  for (const AttainedLaws& m : members) {
    samples.emplace_back(&m.laws.p, &m.laws.q);
    samples.emplace_back(&m.laws.q, &m.laws.p);
  }
  const auto splitter = std::make_shared<const GridSplitter>(grid_for(samples, limits));
  ProfileEnvelope forward(splitter), backward(splitter);
  bool bounded = true;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const NeighbouringPmfs& l = members[i].laws;
    const std::vector<double> tail = GridSplitter::tail_factors(members[i].max_loss);
    bounded = bounded && members[i].max_loss < std::numeric_limits<double>::infinity();
    const std::size_t tag = members[i].attained ? i : ProfileEnvelope::kNoTag;  // lower bounds: attained only
    forward.add(l.p, l.q, l.disjoint, tag, 0, &tail);
    if (!both_orders) backward.add(l.q, l.p, l.disjoint, tag, 0, &tail);
  }
  out.upper_[0] = trimmed(forward.dominating(), limits);
  out.upper_[1] = both_orders ? out.upper_[0] : trimmed(backward.dominating(), limits);
  if (bounded) {  // every loss bounded: the members' largest moments, each direction
    out.moments_[0] = forward.log_moments();
    out.moments_[1] = both_orders ? out.moments_[0] : backward.log_moments();
    double largest = 0;  // each member's bound holds either way round
    for (const AttainedLaws& m : members) largest = std::max(largest, m.max_loss);
    out.max_loss_[0] = out.max_loss_[1] = largest;
  }
  out.symmetric_ = both_orders;
  out.configurations_ = out.family_size_ = members.size();
  std::vector<const ProfileEnvelope*> envelopes{&forward};
  if (!both_orders) envelopes.push_back(&backward);
  for (std::size_t tag : lower_tags(envelopes)) {
    const NeighbouringPmfs& l = members[tag].laws;
    AttainedBy by;
    by.parts.push_back(members[tag].words);
    by.repeats.push_back(1);
    by.reversed.push_back(false);
    out.lower_.push_back(Lower{{lower_pld(l.p, l.q, l.disjoint, limits),
                                lower_pld(l.q, l.p, l.disjoint, limits)},
                               by});
  }
  // The members kept for the worst case over the adversary's choices (choice_plan.hpp), where
  // there are few enough of them to keep.
  std::size_t points = 0;
  for (const AttainedLaws& m : members) points += m.laws.p.size();
  if (members.size() <= kMaxProgramMembers && points <= kMaxKeptPoints) {
    auto list = std::make_shared<const std::vector<AttainedLaws>>(members);
    std::vector<UseFamily> directions{UseFamily(list, false)};
    if (!both_orders) directions.emplace_back(list, true);
    out.plan_ = std::make_shared<const ChoicePlan>(std::move(directions), limits);
  }
  return out;
}

Accountant Accountant::from_plds(const UpperPld& upper_forward, const UpperPld& upper_backward,
                                 const LowerPld& lower_forward, const LowerPld& lower_backward,
                                 const AttainedBy& by, Neighbour relation, const PldLimits& limits,
                                 std::uint64_t uses) {
  if (uses < 1 || uses > kMaxCompositions)
    throw invalid_argument("compositions", std::to_string(uses), "in [1, " + std::to_string(kMaxCompositions) + "]");
  Accountant out;
  out.limits_ = limits;
  out.k_ = uses;
  out.mixes_ = relation == Neighbour::replace_one;
  out.moments_[0] = out.moments_[1] = unbounded_moments();
  out.upper_[0] = upper_forward;
  out.upper_[1] = upper_backward;
  out.lower_.push_back(Lower{{lower_forward, lower_backward}, by});
  return out;
}

struct Accountant::KeptPowers {
  KeptPowers(const UpperPld& forward_pld, const UpperPld* backward_pld, const PldLimits& limits)
      : forward(forward_pld, limits) {
    if (backward_pld) backward.emplace(*backward_pld, limits);
  }
  std::mutex mutex;  ///< copies of the accountant share what is kept
  PowerMemo<UpperPld> forward;
  std::optional<PowerMemo<UpperPld>> backward;  ///< none where upper_[1] is upper_[0]
};

Accountant Accountant::from_laws(const std::vector<Rational>& p, const std::vector<Rational>& q,
                                 const PldLimits& limits) {
  if (p.empty() || p.size() > kMaxLawValues)
    throw invalid_argument("p", std::to_string(p.size()) + " values", "between 1 and " + std::to_string(kMaxLawValues));
  if (q.size() != p.size())
    throw invalid_argument("q", std::to_string(q.size()) + " values", std::to_string(p.size()) + " values, as many as p");
  // The laws' own enclosures at 128 bits (exact where the values are dyadic); the PLDs are
  // certified from them.
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  std::vector<Interval> pi, qi;
  Rational total_p(0), total_q(0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] < 0) throw invalid_argument("p[" + std::to_string(i) + "]", to_string(p[i]), ">= 0");
    if (q[i] < 0) throw invalid_argument("q[" + std::to_string(i) + "]", to_string(q[i]), ">= 0");
    total_p += p[i];
    total_q += q[i];
    pi.push_back(interval_from(p[i]));
    qi.push_back(interval_from(q[i]));
  }
  if (total_p != 1) throw invalid_argument("p", "summing to " + to_string(total_p), "summing to 1");
  if (total_q != 1) throw invalid_argument("q", "summing to " + to_string(total_q), "summing to 1");
  Accountant out(few_point_pmf(pi), few_point_pmf(qi), false, limits);
  SumLaw p_law, q_law;  // the outputs 0..len − 1
  for (std::size_t i = 0; i < p.size(); ++i) {
    p_law[Rational(static_cast<long>(i))] = p[i];
    q_law[Rational(static_cast<long>(i))] = q[i];
  }
  out.exact_ = std::make_shared<const std::array<PrivacyLoss, 2>>(
      std::array<PrivacyLoss, 2>{PrivacyLoss::of(p_law, q_law), PrivacyLoss::of(q_law, p_law)});
  return out;
}

Accountant Accountant::compose(std::uint64_t k) const {
  if (k < 1 || k > kMaxCompositions)
    throw invalid_argument("compositions", std::to_string(k),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (k_ > kMaxCompositions / k)
    throw invalid_argument("compositions", std::to_string(k_) + "·" + std::to_string(k),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  Accountant out = *this;
  out.k_ = k_ * k;
  if (plan_) out.plan_ = plan_->composed(k);
  if (lower_plan_) out.lower_plan_ = lower_plan_->rounds_of(1, k);  // every use a round
  for (std::shared_ptr<const Accountant>& part : out.parts_)  // a part's k-fold is the whole's part
    part = std::make_shared<const Accountant>(part->compose(k));
  if (k == 1) return out;
  out.singles_.clear();
  if (kept_) {
    const std::lock_guard<std::mutex> lock(kept_->mutex);
    out.upper_[0] = kept_->forward.power(k);
    out.upper_[1] = symmetric_ ? out.upper_[0] : kept_->backward->power(k);
  } else {
    out.upper_[0] = power(upper_[0], k, limits_);
    out.upper_[1] = symmetric_ ? out.upper_[0] : power(upper_[1], k, limits_);
  }
  out.kept_.reset();  // powers of this accountant's PLDs, not of out's
  for (int d = 0; d < 2; ++d) {
    out.moments_[d] = times(moments_[d], k);
    out.max_loss_[d] = directed::mul_up(max_loss_[d], static_cast<double>(k));
  }
  // The attained sequences worth composing: each configuration's directions alone, and half the
  // uses with one (configuration, direction) and half with another (different configurations in
  // different coordinates; under replace one also different directions). Every one for short
  // compositions; past kFewCompositions, those whose composed loss is largest by its mean and
  // spread (a choice of which lower bounds to compute, so any rule is valid).
  struct Use {
    std::size_t lower, direction;
  };
  struct Option {
    Use first, second;  ///< the same twice: one sequence throughout
    double score;
  };
  std::vector<Use> uses;
  for (std::size_t i = 0; i < lower_.size(); ++i)
    for (std::size_t j = 0; j < lower_[i].pld.size(); ++j) uses.push_back({i, j});
  const double spread = std::sqrt(2 * std::log(1e5) / static_cast<double>(k));
  const auto score = [&](const Use& x, const Use& y) {
    const auto [m0, s0] = loss_moments(lower_[x.lower].pld[x.direction]);
    const auto [m1, s1] = loss_moments(lower_[y.lower].pld[y.direction]);
    return (m0 + m1) / 2 + spread * std::sqrt((s0 * s0 + s1 * s1) / 2);
  };
  std::vector<Option> options;
  for (const Use& x : uses) options.push_back({x, x, score(x, x)});
  // Mixtures of the kMixedUses best uses alone (each mixture costs a composition of its own).
  std::vector<Option> best = options;
  std::stable_sort(best.begin(), best.end(), [](const Option& a, const Option& b) { return a.score > b.score; });
  best.resize(std::min(best.size(), kMixedUses));
  for (std::size_t a = 0; a < best.size(); ++a)
    for (std::size_t b = a + 1; b < best.size(); ++b) {
      const Use& x = best[a].first;
      const Use& y = best[b].first;
      // Remove one keeps client 1 in the same dataset throughout: one direction for all.
      if (!mixes_ && x.direction != y.direction) continue;
      options.push_back({x, y, score(x, y)});
    }
  if (k > kFewCompositions && options.size() > kComposedLowers) {
    // The finite losses' moments rank them; the one with the most mass at +∞ is kept beside them
    // (a tiny such mass decides only small δ: ranked by it alone, a single coordinate's pair with
    // mass 10^−9 there crowded out a whole round's, and 100 rounds' lower end fell from 585 to 0.74).
    const auto infinite = [&](const Option& o) {
      return std::max(lower_[o.first.lower].pld[o.first.direction].infinite,
                      lower_[o.second.lower].pld[o.second.direction].infinite);
    };
    const auto most = std::max_element(options.begin(), options.end(),
                                       [&](const Option& a, const Option& b) { return infinite(a) < infinite(b); });
    const Option leaking = *most;
    std::stable_sort(options.begin(), options.end(), [](const Option& a, const Option& b) { return a.score > b.score; });
    const bool kept = std::any_of(options.begin(), options.begin() + kComposedLowers, [&](const Option& o) {
      return o.first.lower == leaking.first.lower && o.first.direction == leaking.first.direction &&
             o.second.lower == leaking.second.lower && o.second.direction == leaking.second.direction;
    });
    options.resize(kComposedLowers);
    if (infinite(leaking) > 0 && !kept) options.push_back(leaking);
  }
  out.lower_.clear();
  for (const Option& o : options) {
    const Lower& first = lower_[o.first.lower];
    const Lower& second = lower_[o.second.lower];
    const bool one = o.first.lower == o.second.lower && o.first.direction == o.second.direction;
    Lower l;
    if (first.by && second.by) {
      // The first use's parts k − k/2 times (k if one), then the second's k/2 times: the same
      // configuration in the other order too is a part of its own, marked reversed (a mixture of
      // directions is a pair of datasets used both ways).
      // A use's direction 1 is its pair the other way round: its parts' orders flip.
      l.by = in_direction(*first.by, o.first.direction);
      for (std::uint64_t& r : l.by->repeats) r *= one ? k : k - k / 2;
      if (!one) {
        const AttainedBy then = in_direction(*second.by, o.second.direction);
        for (const ConfigurationWords& w : then.parts) l.by->parts.push_back(w);
        for (const std::uint64_t r : then.repeats) l.by->repeats.push_back(r * (k / 2));
        for (const bool r : then.reversed) l.by->reversed.push_back(r);
      }
    }
    // The powers on the way, and what this sequence already had (fewer uses of it), stay lower
    // bounds: a composition's δ(ε) never falls as uses are added.
    if (one) {
      l.pld.push_back(power(first.pld[o.first.direction], k, limits_, l.shorter));
      l.shorter.push_back(first.pld[o.first.direction]);
      if (o.first.direction == 0) l.shorter.insert(l.shorter.end(), first.shorter.begin(), first.shorter.end());
    } else {
      l.pld.push_back(corbin::compose(power(first.pld[o.first.direction], k - k / 2, limits_, l.shorter),
                                      power(second.pld[o.second.direction], k / 2, limits_), limits_));
    }
    out.lower_.push_back(std::move(l));
  }
  return out;
}

Accountant Accountant::coordinates(std::uint64_t m, std::uint64_t rounds) const {
  if (m < 1 || rounds < 1 || m > kMaxCompositions / rounds)
    throw invalid_argument("compositions", std::to_string(m) + "·" + std::to_string(rounds),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  Accountant out = compose(m * rounds);
  if (plan_) out.plan_ = plan_->rounds_of(m, rounds);
  if (m > 1) {  // the members are rounds, not coordinates sharing a draw: no adaptive lower end
    const std::function<void(Accountant&)> drop = [&drop](Accountant& a) {
      a.lower_plan_.reset();
      for (std::shared_ptr<const Accountant>& part : a.parts_) {  // nor in a part (compose(m·rounds))
        Accountant copy = *part;
        drop(copy);
        part = std::make_shared<const Accountant>(std::move(copy));
      }
    };
    drop(out);
  }
  return out;
}

Accountant Accountant::then(const Accountant& next) const {
  if (k_ > kMaxCompositions - next.k_)
    throw invalid_argument("compositions", std::to_string(k_) + " + " + std::to_string(next.k_),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  Accountant out;
  out.limits_ = limits_;
  out.k_ = k_ + next.k_;
  out.configurations_ = configurations_ + next.configurations_;
  out.family_size_ = family_size_ + next.family_size_;
  out.blocks_ = blocks_ + next.blocks_;
  for (int d = 0; d < 2; ++d) {
    out.upper_[d] = corbin::compose(upper_[d], next.upper_[d], limits_);
    out.moments_[d] = add(moments_[d], next.moments_[d]);
    out.max_loss_[d] = directed::add_up(max_loss_[d], next.max_loss_[d]);
  }
  // A lower bound for the sequence: the i-th configuration of each part, used in its turn. A
  // part without lower bounds (upper_only) leaves the other's: its output dropped is a
  // post-processing of the whole.
  out.mixes_ = mixes_ && next.mixes_;
  out.symmetric_ = symmetric_ && next.symmetric_;
  if (plan_ && next.plan_) out.plan_ = plan_->then(*next.plan_);  // one menu, or menus in turn
  // Members of the mechanism as run, for a lower end only: each part's own (with_adaptive_lower),
  // or where a part has none its family's attained members (the same mechanism as run), so that
  // a phase with dropout and one without are one search (one menu, or menus in turn).
  if (lower_plan_ || next.lower_plan_) {
    const ChoicePlan* first = lower_plan_ ? lower_plan_.get() : has_plan() ? plan_.get() : nullptr;
    const ChoicePlan* second = next.lower_plan_ ? next.lower_plan_.get() : next.has_plan() ? next.plan_.get() : nullptr;
    if (first && second) {
      out.lower_plan_ = first->then(*second);
      out.lower_points_ = std::max(lower_points_, next.lower_points_);  // each use's outcomes at most
    }
  }
  const bool lower_lost = !out.has_lower_plan() && (has_lower_plan() || next.has_lower_plan());
  // Each part's searches stay lower bounds of the whole, kept where the whole's program may not
  // run (menus in turn are more work than one). A part that is menus in turn itself gives its
  // own parts (its whole's program is a prefix of this one's: searching every prefix of a long
  // run of phases would cost their number times the run's).
  const auto in_turn = [](const Accountant& a) {
    return (a.plan_ && a.plan_->menus() > 1) || (a.lower_plan_ && a.lower_plan_->menus() > 1);
  };
  const bool menus = in_turn(out);
  if (!out.plan_ || menus || lower_lost)
    for (const Accountant* part : {this, &next}) {
      if (menus && in_turn(*part) && !part->parts_.empty() && !lower_lost) {
        out.parts_.insert(out.parts_.end(), part->parts_.begin(), part->parts_.end());
        continue;
      }
      if (part->has_plan() || part->has_lower_plan() || !part->parts_.empty())
        out.parts_.push_back(std::make_shared<const Accountant>(*part));
    }
  if (lower_.empty() || next.lower_.empty()) {
    out.lower_ = lower_.empty() ? next.lower_ : lower_;
    return out;
  }
  for (std::size_t i = 0; i < std::min(lower_.size(), next.lower_.size()); ++i) {
    Lower l;
    for (std::size_t d = 0; d < std::min(lower_[i].pld.size(), next.lower_[i].pld.size()); ++d)
      l.pld.push_back(corbin::compose(lower_[i].pld[d], next.lower_[i].pld[d], limits_));
    if (lower_[i].by && next.lower_[i].by) {
      l.by = lower_[i].by;
      l.by->parts.insert(l.by->parts.end(), next.lower_[i].by->parts.begin(),
                         next.lower_[i].by->parts.end());
      l.by->repeats.insert(l.by->repeats.end(), next.lower_[i].by->repeats.begin(),
                           next.lower_[i].by->repeats.end());
      l.by->reversed.insert(l.by->reversed.end(), next.lower_[i].by->reversed.begin(),
                            next.lower_[i].by->reversed.end());
    }
    out.lower_.push_back(std::move(l));
  }
  // Each part's own lower bounds too (the other part's output dropped: a post-processing), so
  // that the whole's is never below either part's, whichever configurations the pairing above
  // put together.
  for (const std::vector<Lower>* part : {&lower_, &next.lower_})
    out.lower_.insert(out.lower_.end(), part->begin(), part->end());
  return out;
}

Accountant Accountant::any_order() const {
  Accountant out = *this;
  if (plan_ && plan_->menus() > 1) out.plan_.reset();
  if (lower_plan_ && lower_plan_->menus() > 1) out.lower_plan_.reset();
  return out;
}

Accountant Accountant::per_use_with(const Accountant& other) const {
  if (k_ != other.k_)
    throw invalid_argument("compositions", std::to_string(other.k_), "as many as " + std::to_string(k_));
  Accountant out;
  out.limits_ = limits_;
  out.k_ = k_;
  out.configurations_ = configurations_ + other.configurations_;
  out.family_size_ = family_size_ + other.family_size_;
  out.blocks_ = blocks_ + other.blocks_;
  out.mixes_ = mixes_ && other.mixes_;
  // The pair (D, D') is one for both: each direction combines with the same direction.
  out.symmetric_ = symmetric_ && other.symmetric_;
  return out;
}

Accountant Accountant::either(const Accountant& other) const {
  Accountant out = per_use_with(other);
  out.upper_[0] = dominating_either(upper_[0], other.upper_[0], limits_);
  out.upper_[1] = out.symmetric_ ? out.upper_[0] : dominating_either(upper_[1], other.upper_[1], limits_);
  // Rényi moments compose adaptively with the largest of each step's, order by order.
  for (int d = 0; d < 2; ++d) {
    out.moments_[d] = moments_[d];
    for (std::size_t o = 0; o < out.moments_[d].size(); ++o)
      out.moments_[d][o] = std::max(moments_[d][o], other.moments_[d][o]);
    out.max_loss_[d] = std::max(max_loss_[d], other.max_loss_[d]);
  }
  out.lower_ = lower_;
  out.lower_.insert(out.lower_.end(), other.lower_.begin(), other.lower_.end());
  // Both families stay searchable at the query (a lower bound near δ from either role).
  out.singles_ = singles_;
  out.singles_.insert(out.singles_.end(), other.singles_.begin(), other.singles_.end());
  if (plan_ && other.plan_) out.plan_ = plan_->either(*other.plan_);
  return out;
}

Accountant Accountant::mixture(const Rational& w, const Accountant& other, const std::string& when_this,
                               const std::string& when_other) const {
  if (w < 0 || w > 1) throw invalid_argument("weight", to_string(w), "in [0, 1]");
  Accountant out = per_use_with(other);
  for (int d = 0; d < 2; ++d) {
    out.upper_[d] = corbin::mixture(upper_[d], other.upper_[d], w, limits_);
    out.moments_[d] = corbin::mixture(moments_[d], other.moments_[d], w);
    out.max_loss_[d] = std::max(max_loss_[d], other.max_loss_[d]);  // the label adds no loss
  }
  // Lower bounds: one attained configuration for each draw, in the same direction.
  const std::string probability_this = " (probability " + to_string(w) + ")";
  const std::string probability_other = " (probability " + to_string(Rational(1) - w) + ")";
  const auto label = [](AttainedBy by, const std::string& when) {
    for (ConfigurationWords& words : by.parts) words.when = when;
    return by;
  };
  // Client 1's inputs are its data, fixed before the draw: only configurations that put client 1
  // at the same inputs (in the same order, use by use) mix into an attained pair of datasets.
  for (const Lower& x : lower_)
    for (const Lower& y : other.lower_) {
      if (!x.by || !y.by) continue;
      for (std::size_t dx = 0; dx < x.pld.size(); ++dx)
        for (std::size_t dy = 0; dy < y.pld.size(); ++dy) {
          AttainedBy first = label(in_direction(*x.by, dx), when_this + probability_this);
          const AttainedBy second = label(in_direction(*y.by, dy), when_other + probability_other);
          if (!same_client_1(first, second)) continue;
          first.parts.insert(first.parts.end(), second.parts.begin(), second.parts.end());
          first.repeats.insert(first.repeats.end(), second.repeats.begin(), second.repeats.end());
          first.reversed.insert(first.reversed.end(), second.reversed.begin(), second.reversed.end());
          out.lower_.push_back(Lower{{corbin::mixture(x.pld[dx], y.pld[dy], w, limits_)}, std::move(first)});
        }
    }
  // The adversary's choices given each round's draw (choice_plan.hpp), where both keep them.
  if (plan_ && other.plan_) out.plan_ = plan_->mixture(w, *other.plan_, when_this, when_other);
  if (has_lower_plan() && other.has_lower_plan()) {
    out.lower_plan_ = lower_plan_->mixture(w, *other.lower_plan_, when_this, when_other);
    out.lower_points_ = lower_points_ + other.lower_points_;
  }
  return out;
}

Accountant Accountant::keeping_powers() const {
  Accountant out = *this;
  out.kept_ = std::make_shared<KeptPowers>(upper_[0], symmetric_ ? nullptr : &upper_[1], limits_);
  return out;
}

Accountant Accountant::upper_only() const {
  Accountant out = *this;
  out.lower_.clear();
  out.singles_.clear();  // the families searched at the query are lower bounds too
  out.plan_.reset();     // and the adversary's choices are searched per query: not here
  out.lower_plan_.reset();
  out.parts_.clear();
  return out;
}

Accountant Accountant::tighter(const Accountant& other) const {
  const auto pair_only = [](const Accountant& a) {
    return !a.plan_ && !a.lower_plan_ && a.parts_.empty() && a.singles_.empty() && !a.exact_;
  };
  if (!pair_only(other) || other.k_ != k_ || other.mixes_ != mixes_)
    throw invalid_argument("other", "an accountant with a search, exact laws, other uses or another relation",
                           "a pair of PLDs of as many uses");
  Accountant out = *this;
  out.kept_.reset();
  out.symmetric_ = symmetric_ && other.symmetric_;
  for (int d = 0; d < 2; ++d) {
    out.upper_[d] = meet(upper_[d], other.upper_[d], limits_);
    out.max_loss_[d] = std::min(max_loss_[d], other.max_loss_[d]);
  }
  out.lower_.insert(out.lower_.end(), other.lower_.begin(), other.lower_.end());
  return out;
}

Accountant Accountant::bounding() const {
  Accountant out = upper_only();
  if (plan_) out.plan_ = plan_->bounding();
  return out;
}

Accountant Accountant::with_attained_plds(const std::vector<AttainedPlds>& attained) const {
  Accountant out = *this;
  for (const AttainedPlds& a : attained) {
    AttainedBy by;
    by.parts.push_back(a.words);
    by.repeats.push_back(1);
    by.reversed.push_back(false);
    out.lower_.push_back(Lower{{a.forward, a.backward}, by});
  }
  return out;
}

Accountant Accountant::with_adaptive_lower(const std::vector<AttainedLaws>& members) const {
  if (members.empty()) throw invalid_argument("members", "none", "at least one");
  for (const AttainedLaws& m : members)
    if (!m.attained) throw invalid_argument("members", "one not attained", "each attained");
  Accountant out = *this;
  out.lower_points_ = 0;
  for (const AttainedLaws& m : members) out.lower_points_ += m.laws.p.size();
  auto list = std::make_shared<const std::vector<AttainedLaws>>(members);
  // Either dataset of the pair may be client 1's in every round, the same throughout: each
  // direction its own search.
  std::vector<UseFamily> directions{UseFamily(list, false), UseFamily(list, true)};
  out.lower_plan_ = std::make_shared<const ChoicePlan>(std::move(directions), limits_)->rounds_of(1, k_);
  return out;
}

std::vector<Accountant::Lower> Accountant::near_query(bool by_delta, const Rational& at) const {
  std::vector<Lower> out;
  if (singles_.empty() || k_ != 1) return out;
  // The attained members largest at the grid points around the answer: where the envelope
  // crosses δ (an ε query), or at ε (a δ query).
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  for (const std::shared_ptr<const SingleUse>& single : singles_) {
  std::vector<std::size_t> tags;
  for (const SingleUse::Envelope& e : single->envelopes) {
    std::size_t k = 0;
    if (by_delta) {
      while (k < e.value.size() && to_rational(e.value[k]) > at) ++k;
    } else {
      const double eps = to_double(at), h = std::ldexp(1.0, e.grid.scale);
      while (k < e.value.size() &&
             static_cast<double>(e.grid.offset + static_cast<std::int64_t>(k)) * h < eps)
        ++k;
    }
    for (std::size_t i : {k > 0 ? k - 1 : k, k})
      if (i < e.tag.size() && e.tag[i] != ProfileEnvelope::kNoTag &&
          std::find(tags.begin(), tags.end(), e.tag[i]) == tags.end())
        tags.push_back(e.tag[i]);
  }
  const AggregateFamily& family = *single->family;
  for (std::size_t tag : tags) {
    const Configuration c = configuration_of(tag, family.candidates());
    const NeighbouringPmfs laws = family.laws(c);
    AttainedBy by;
    by.parts.push_back(family.describe(c));
    by.repeats.push_back(1);
    by.reversed.push_back(false);
    out.push_back(Lower{{lower_pld(laws.p, laws.q, laws.disjoint, limits_),
                         lower_pld(laws.q, laws.p, laws.disjoint, limits_)},
                        by});
  }
  }
  return out;
}

std::pair<double, std::optional<AttainedBy>> Accountant::best_lower(bool by_delta,
                                                                    const Rational& at,
                                                                    bool choices, const Exact* exact_given) const {
  double value = 0;
  std::optional<AttainedBy> by;
  bool first = true;
  auto consider = [&](const Lower& l) {
    const auto bound = [&](const LowerPld& pld) {
      return by_delta ? corbin::eps_lower(pld, at) : corbin::delta_lower(pld, at);
    };
    for (std::size_t d = 0; d < l.pld.size(); ++d) {
      double x = bound(l.pld[d]);
      // Fewer uses of the same sequence, in its direction 0 (compose). For ε one δ at the ε so
      // far says whether a shorter one can do better, before its ε is searched.
      if (d == 0)
        for (const LowerPld& pld : l.shorter)
          if (!by_delta || (std::isfinite(x) && to_rational(corbin::delta_lower(pld, to_rational(x))) > at))
            x = std::max(x, bound(pld));
      if (first || x > value) {
        value = x;
        by = l.by ? std::optional<AttainedBy>(in_direction(*l.by, d)) : std::nullopt;
        first = false;
      }
    }
  };
  for (const Lower& l : lower_) consider(l);
  for (const Lower& l : near_query(by_delta, at)) consider(l);
  for (const std::shared_ptr<const Accountant>& part : parts_) {  // a `then`'s parts, searched
    auto [x, part_by] = part->best_lower(by_delta, at);
    if (x > value) {
      value = x;
      by = std::move(part_by);
    }
  }
  const Exact exact = exact_given ? *exact_given : exact_answer(by_delta, at);
  if (exact && exact->lower > value) {
    value = exact->lower;
    by.reset();
  }
  // The plans' strategies: the family's (whose answer the upper bound's query computed, kept for
  // this one) and some members' of the mechanism as run (a lower end only, never an upper).
  if (choices && (has_plan() || has_lower_plan())) {
    const double upper = by_delta ? eps_upper_with(at, exact) : delta_upper_with(at, exact);
    const ChoicePlan* plans[] = {has_plan() ? plan_.get() : nullptr,
                                 has_lower_plan() ? lower_plan_.get() : nullptr};
    for (const ChoicePlan* plan : plans) {
      if (!plan) continue;
      const ChoicePlan::Answer a = plan->answer(by_delta, at, value, upper);
      if (a.computed && a.by && a.lower > value) {
        value = a.lower;
        by = a.by;
      }
    }
  }
  return {value, by};
}

std::optional<TwoSided> Accountant::exact_answer(bool by_delta, const Rational& at) const {
  if (!exact_ || k_ != 1) return std::nullopt;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  TwoSided out{0, 0};
  try {
    for (const PrivacyLoss& loss : *exact_) {
      TwoSided one{0, 0};
      if (by_delta) {
        const PrivacyLoss::AtDelta a = loss.exp_eps_for(at);
        const double inf = std::numeric_limits<double>::infinity();
        const Interval eps = a.infinite ? Interval(0) : log(interval_from(a.exp_eps));
        one = a.infinite ? TwoSided{inf, inf} : TwoSided{std::max(0.0, to_double_down(lower_of(eps))), std::max(0.0, to_double_up(upper_of(eps)))};
      } else {
        const Interval d = loss.delta_at(exp(interval_from(at)));
        one = {std::clamp(to_double_down(lower_of(d)), 0.0, 1.0), std::clamp(to_double_up(upper_of(d)), 0.0, 1.0)};
      }
      out = {std::max(out.lower, one.lower), std::max(out.upper, one.upper)};
    }
  } catch (const undecidable&) {
    return std::nullopt;  // e^ε too close to a likelihood ratio at this precision: the grid's bounds stand
  }
  return out;
}

bool Accountant::has_plan() const {
  // A plan answers for exactly this accountant's uses (one whose k_ changed another way has none).
  return plan_ && plan_->uses() == k_;
}

bool Accountant::has_lower_plan() const {
  return lower_plan_ && lower_plan_->uses() == k_ &&
         static_cast<double>(lower_points_) * static_cast<double>(k_) <= kMaxAdaptiveLowerWork;
}

double Accountant::choice_upper(bool by_delta, const Rational& at, double pair, const Exact& exact) const {
  const ChoicePlan::Answer a = plan_->answer(by_delta, at, best_lower(by_delta, at, false, &exact).first, pair);
  return a.computed ? std::min(pair, a.upper) : pair;
}

TwoSided Accountant::epsilon(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  const Exact exact = exact_answer(true, delta);
  const double upper = eps_upper_with(delta, exact);
  const double lower = best_lower(true, delta, true, &exact).first;
  return {std::clamp(lower, 0.0, upper), upper};
}

TwoSided Accountant::delta(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  const Exact exact = exact_answer(false, eps);
  const double upper = delta_upper_with(eps, exact);
  const double lower = best_lower(false, eps, true, &exact).first;
  return {std::clamp(lower, 0.0, upper), upper};
}

double Accountant::epsilon_upper(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return eps_upper_with(delta, exact_answer(true, delta));
}

double Accountant::delta_upper(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return delta_upper_with(eps, exact_answer(false, eps));
}

double Accountant::eps_upper_with(const Rational& delta, const Exact& exact) const {
  double out = 0;  // each direction: the smallest of its bounds
  for (int d = 0; d < 2; ++d)
    out = std::max(out, std::min({eps_upper(upper_[d], delta), eps_from_moments(moments_[d], delta),
                                  std::max(0.0, max_loss_[d])}));
  if (exact) out = std::min(out, exact->upper);
  return has_plan() ? choice_upper(true, delta, out, exact) : out;
}

double Accountant::delta_upper_with(const Rational& eps, const Exact& exact) const {
  double out = 0;
  for (int d = 0; d < 2; ++d)
    if (!(std::isfinite(max_loss_[d]) && to_rational(max_loss_[d]) <= eps))  // past every loss, δ = 0
      out = std::max(out, std::min(corbin::delta_upper(upper_[d], eps),
                                   corbin::delta_from_moments(moments_[d], eps)));
  if (exact) out = std::min(out, exact->upper);
  return std::clamp(has_plan() ? choice_upper(false, eps, out, exact) : out, 0.0, 1.0);
}

double Accountant::epsilon_lower(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return best_lower(true, delta).first;  // 0 where there are none
}

double Accountant::delta_lower(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return std::clamp(best_lower(false, eps).first, 0.0, 1.0);
}

double Accountant::epsilon_from_moments(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return std::max(corbin::eps_from_moments(moments_[0], delta), corbin::eps_from_moments(moments_[1], delta));
}

double Accountant::delta_from_moments(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return std::clamp(std::max(corbin::delta_from_moments(moments_[0], eps), corbin::delta_from_moments(moments_[1], eps)),
                    0.0, 1.0);
}

std::optional<AttainedBy> Accountant::attaining_epsilon(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  return best_lower(true, delta).second;
}

std::optional<AttainedBy> Accountant::attaining_delta(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  return best_lower(false, eps).second;
}

}  // namespace corbin
