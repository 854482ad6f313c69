#include "corbin/privacy/run/choice_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/pld/multiset_worst_case.hpp"

namespace corbin {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
/// The program refines its grid while its bracket is wider than this, relative to the upper end,
/// and the passes' multiply-adds stay within kRefinedShare times the first's and kMaxRefinedWork
/// in all (about half a second of the backward pass on two cores).
constexpr double kProgramTolerance = 1e-4;
constexpr double kRefinedShare = 6;
constexpr double kMaxRefinedWork = 3e9;
}  // namespace

UseFamily::UseFamily(std::shared_ptr<const AggregateFamily> family, std::vector<Configuration> members,
                     bool backward)
    : aggregate_(std::move(family)), configurations_(std::move(members)), backward_(backward) {}

UseFamily::UseFamily(std::shared_ptr<const std::vector<AttainedLaws>> members, bool backward)
    : list_(std::move(members)), backward_(backward) {}

std::size_t UseFamily::size() const {
  return list_ ? list_->size() : configurations_.size();
}

NeighbouringPmfs UseFamily::laws(std::size_t i) const {
  NeighbouringPmfs l = list_ ? (*list_)[i].laws : aggregate_->laws(configurations_[i]);
  if (backward_) std::swap(l.p, l.q);
  return l;
}

ConfigurationWords UseFamily::words(std::size_t i) const {
  return list_ ? (*list_)[i].words : aggregate_->describe(configurations_[i]);
}

bool UseFamily::same_as(const UseFamily& other) const {
  // A family kept for the upper end only is not the same as its attained self: joined with it
  // (ChoicePlan::then), its members would be played as attained.
  if (backward_ != other.backward_ || bounds_only_ != other.bounds_only_) return false;
  if (list_ || other.list_) return list_ == other.list_;
  const AccountSetting& a = aggregate_->setting();
  const AccountSetting& b = other.aggregate_->setting();
  if (!same_setting(a, b) || a.role != b.role || configurations_.size() != other.configurations_.size())
    return false;
  for (std::size_t i = 0; i < configurations_.size(); ++i)
    if (configurations_[i].candidate != other.configurations_[i].candidate ||
        configurations_[i].top != other.configurations_[i].top)
      return false;
  return true;
}

bool UseFamily::attained(std::size_t i) const {
  if (bounds_only_) return false;
  return list_ ? (*list_)[i].attained : aggregate_->candidate(configurations_[i].candidate).attained();
}

UseFamily UseFamily::bounding() const {
  UseFamily out = *this;
  out.bounds_only_ = true;
  return out;
}

ChoicePlan::ChoicePlan(std::vector<UseFamily> directions, const PldLimits& limits) : limits_(limits) {
  for (UseFamily& f : directions) directions_.push_back({std::move(f)});
}

std::shared_ptr<ChoicePlan> ChoicePlan::copy() const {
  auto out = std::make_shared<ChoicePlan>(std::vector<UseFamily>{}, limits_);
  out->directions_ = directions_;
  out->weights_ = weights_;
  out->when_ = when_;
  out->uses_ = uses_;
  out->round_ = round_;
  out->parts_ = parts_;
  return out;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::with_uses(std::uint64_t uses, std::uint64_t round) const {
  auto out = copy();
  out->uses_ = uses;  // the accountant keeps it within kMaxCompositions
  out->round_ = round;
  return out;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::repeated(std::uint64_t times, bool keep_rounds) const {
  if (times > kMaxPlanParts / parts_.size()) return nullptr;
  auto out = copy();
  out->parts_.clear();
  for (std::uint64_t i = 0; i < times; ++i)
    for (const std::shared_ptr<const ChoicePlan>& part : parts_)
      out->parts_.push_back(keep_rounds ? part : part->with_uses(part->uses_, 0));
  out->uses_ = uses_ * times;
  return out;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::composed(std::uint64_t k) const {
  // Menus in turn, composed: the whole sequence again, k times.
  if (!parts_.empty()) return k == 1 ? copy() : repeated(k, false);
  return with_uses(uses_ * k, k == 1 ? round_ : 0);
}

std::shared_ptr<const ChoicePlan> ChoicePlan::rounds_of(std::uint64_t m, std::uint64_t rounds) const {
  // Menus in turn as rounds: the sequence again in each (as m coordinates it would be another
  // order of menus, which the program does not answer for).
  if (!parts_.empty()) return m == 1 ? repeated(rounds, true) : nullptr;
  // A plan of whole rounds (round_ uses each), repeated as rounds, is still rounds of round_ uses.
  // A one-use plan with a drawn role redraws it in every use (its accountant's pair is composed
  // m·rounds times): as m coordinates configured together, its draws would not be the rounds'.
  const std::uint64_t round =
      uses_ == 1 ? (weights_.empty() || m == 1 ? m : 0) : (m == 1 ? round_ : 0);
  return with_uses(uses_ * m * rounds, round);  // the caller keeps m·rounds in range
}

std::shared_ptr<const ChoicePlan> ChoicePlan::either(const ChoicePlan& other) const {
  if (!parts_.empty() || !other.parts_.empty() || other.directions_.size() != directions_.size() ||
      other.uses_ != uses_ || !weights_.empty() || !other.weights_.empty())
    return nullptr;
  for (std::size_t d = 0; d < directions_.size(); ++d)
    if (directions_[d].front().backward() != other.directions_[d].front().backward()) return nullptr;
  auto out = std::make_shared<ChoicePlan>(std::vector<UseFamily>{}, limits_);
  out->directions_ = directions_;
  for (std::size_t d = 0; d < directions_.size(); ++d)
    out->directions_[d].insert(out->directions_[d].end(), other.directions_[d].begin(),
                               other.directions_[d].end());
  out->uses_ = uses_;
  out->round_ = other.round_ == round_ ? round_ : 0;
  return out;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::mixture(const Rational& w, const ChoicePlan& other,
                                                     const std::string& when_this,
                                                     const std::string& when_other) const {
  // Accountant::mixture draws once for all of its uses (it mixes the k-fold pairs): each plan
  // must be one round, so that the program's draw per round is that one draw.
  if (!parts_.empty() || !other.parts_.empty() || other.directions_.size() != directions_.size() ||
      other.uses_ != uses_ || round_ != uses_ || other.round_ != round_)
    return nullptr;
  // Each side's draws: one role (weight 1), or a mixture's roles with their weights; several roles
  // without weights are the adversary's pick (either), which a draw cannot hold.
  const auto draws = [](const ChoicePlan& plan, const Rational& weight, const std::string& when,
                        std::vector<Rational>& weights, std::vector<std::string>& whens) {
    if (plan.weights_.empty()) {
      if (plan.directions_.front().size() != 1) return false;
      weights.push_back(weight);
      whens.push_back(when);
      return true;
    }
    for (std::size_t g = 0; g < plan.weights_.size(); ++g) {
      weights.push_back(weight * plan.weights_[g]);
      whens.push_back(when.empty() || plan.when_[g].empty() ? when + plan.when_[g] : when + ", " + plan.when_[g]);
    }
    return true;
  };
  std::vector<Rational> weights;
  std::vector<std::string> whens;
  if (!draws(*this, w, when_this, weights, whens) || !draws(other, Rational(1) - w, when_other, weights, whens))
    return nullptr;
  for (std::size_t d = 0; d < directions_.size(); ++d)
    for (const std::vector<UseFamily>* roles : {&directions_[d], &other.directions_[d]})
      for (const UseFamily& f : *roles)
        if (f.backward() != directions_[d].front().backward()) return nullptr;
  auto out = std::make_shared<ChoicePlan>(std::vector<UseFamily>{}, limits_);
  out->directions_ = directions_;
  for (std::size_t d = 0; d < directions_.size(); ++d)
    out->directions_[d].insert(out->directions_[d].end(), other.directions_[d].begin(), other.directions_[d].end());
  out->uses_ = uses_;
  out->round_ = round_;
  out->weights_ = std::move(weights);
  out->when_ = std::move(whens);
  return out;
}

namespace {
/// The same families role by role (UseFamily::same_as).
bool same_roles(const std::vector<UseFamily>& a, const std::vector<UseFamily>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t r = 0; r < a.size(); ++r)
    if (!a[r].same_as(b[r])) return false;
  return true;
}
}  // namespace

bool ChoicePlan::joins(const ChoicePlan& next) const {
  if (!parts_.empty() || !next.parts_.empty() || next.directions_.size() != directions_.size() ||
      next.weights_ != weights_)
    return false;
  for (std::size_t d = 0; d < directions_.size(); ++d)
    if (!same_roles(directions_[d], next.directions_[d])) return false;
  return true;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::then(const ChoicePlan& next) const {
  // Rounds of the same size stay rounds: the first part's last round ends before the next begins.
  if (joins(next)) return with_uses(uses_ + next.uses_, round_ == next.round_ ? round_ : 0);
  // Menus in turn: each part's, a part joined to the one before where they are the same.
  std::vector<std::shared_ptr<const ChoicePlan>> parts =
      parts_.empty() ? std::vector<std::shared_ptr<const ChoicePlan>>{copy()} : parts_;
  const std::vector<std::shared_ptr<const ChoicePlan>> more =
      next.parts_.empty() ? std::vector<std::shared_ptr<const ChoicePlan>>{next.copy()} : next.parts_;
  for (const std::shared_ptr<const ChoicePlan>& p : more) {
    if (parts.back()->joins(*p))
      parts.back() = parts.back()->then(*p);
    else
      parts.push_back(p);
  }
  if (parts.size() > kMaxPlanParts) return nullptr;
  // Direction d of every part is the same pair of datasets the same way round (the accountant's
  // pairs compose direction by direction alike). A part of one direction lists both orders in its
  // family (replace one), or one law in both worlds, so it goes with each direction of the others:
  // it is repeated for each.
  // (A part so repeated already, every direction the same, goes with any too.)
  const auto any_way = [](const ChoicePlan& p) {
    for (const std::vector<UseFamily>& roles : p.directions_)
      if (!same_roles(roles, p.directions_.front())) return false;
    return true;
  };
  std::size_t directions = 0;
  const std::vector<std::vector<UseFamily>>* first = nullptr;  // a part's that is not any way
  for (const std::shared_ptr<const ChoicePlan>& p : parts) {
    directions = std::max(directions, p->directions_.size());
    if (!first && !any_way(*p)) first = &p->directions_;
  }
  if (directions == 0) return nullptr;
  for (std::shared_ptr<const ChoicePlan>& p : parts) {
    if (any_way(*p)) {
      if (p->directions_.size() != directions) {
        auto wide = p->copy();
        wide->directions_.assign(directions, p->directions_.front());
        p = wide;
      }
      continue;
    }
    if (p->directions_.size() != directions) return nullptr;
    for (std::size_t d = 0; d < directions; ++d)
      if (p->directions_[d].front().backward() != (*first)[d].front().backward()) return nullptr;
  }
  auto out = std::make_shared<ChoicePlan>(std::vector<UseFamily>{}, limits_);
  out->parts_ = std::move(parts);
  out->uses_ = uses_ + next.uses_;
  out->round_ = 0;  // each part has its own
  return out;
}

std::shared_ptr<const ChoicePlan> ChoicePlan::bounding() const {
  auto out = copy();
  for (std::vector<UseFamily>& roles : out->directions_)
    for (UseFamily& f : roles) f = f.bounding();
  for (std::shared_ptr<const ChoicePlan>& p : out->parts_) p = p->bounding();
  return out;
}

ChoicePlan::Answer ChoicePlan::answer(bool by_delta, const Rational& at, double fixed_lower,
                                      double pair_upper) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto key = std::make_pair(by_delta, at);
  if (const auto it = answers_.find(key); it != answers_.end()) return it->second;
  return answers_[key] = compute(by_delta, at, fixed_lower, pair_upper);
}

ChoicePlan::Answer ChoicePlan::compute(bool by_delta, const Rational& at, double fixed_lower,
                                       double pair_upper) const {
  Answer none;
  if (directions() == 0 || !(pair_upper > fixed_lower)) return none;
  // One use: the dominating pair is the envelope of the members themselves, exact up to its grid;
  // the lower end is the best member's (the accountant keeps only a few of them). Where the role
  // is drawn no one member is attained: the program's strategy picks client 1's input and each
  // draw's member (at n = 3, γ = 1/2, d = 1, e^ε = 2, δ = 1/10 the mixture's few configurations
  // gave 0.4347 where the exact ε is 0.5691).
  if (parts_.empty() && uses_ < 2 && weights_.empty()) return by_members(by_delta, at, pair_upper);
  // Nothing to narrow: the bracket has met, or there is no finite ε to look around.
  if (by_delta && (!(pair_upper < kInf) || !(pair_upper > fixed_lower))) return none;
  if (!by_delta && !(pair_upper > fixed_lower)) return none;
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Answer out;
  bool first = true;
  for (std::size_t d = 0; d < directions(); ++d) {
    // The menus in turn in this direction (one, or the parts'), and the members they hold.
    std::vector<Part> parts;
    if (parts_.empty()) parts.push_back({this, &directions_[d]});
    for (const std::shared_ptr<const ChoicePlan>& p : parts_) parts.push_back({p.get(), &p->directions_[d]});
    for (const Part& p : parts)
      if (!p.plan->weights_.empty() && p.plan->round_ == 0) return none;  // the draws' places unknown
    std::size_t members = 0;
    for (const UseFamily& f : *parts.front().roles) members += f.size();
    Answer a;
    if (parts_.empty() && round_ == uses_ && uses_ >= 2 && directions_[d].size() == 1 &&
        multiset_count(members, uses_, kMaxMultisets) <= kMaxMultisets) {
      a = by_multisets(directions_[d].front(), by_delta, at);
    } else {
      a = by_program(parts, by_delta, at, fixed_lower, pair_upper);
    }
    if (!a.computed) return none;  // every direction is needed for an upper bound
    out.computed = true;
    out.multisets = a.multisets;
    out.upper = first ? a.upper : std::max(out.upper, a.upper);
    if (a.by && (!out.by || a.lower > out.lower)) {
      out.lower = a.lower;
      out.by = a.by;
    }
    first = false;
  }
  return out;
}

ChoicePlan::Answer ChoicePlan::by_multisets(const UseFamily& f, bool by_delta, const Rational& at) const {
  std::vector<MultisetMember> members;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const NeighbouringPmfs l = f.laws(i);
    members.push_back({upper_pld(l.p, l.q, l.disjoint, limits_), lower_pld(l.p, l.q, l.disjoint, limits_),
                       f.attained(i)});
  }
  const MultisetAnswer m = multiset_worst_case(members, uses_, by_delta, at, kMaxMultisets, limits_);
  Answer out;
  out.computed = true;
  out.multisets = true;
  out.upper = m.upper;
  if (!m.counts.empty()) {
    out.lower = m.lower;
    AttainedBy by;
    for (std::size_t i = 0; i < m.counts.size(); ++i) {
      if (m.counts[i] == 0) continue;
      by.parts.push_back(f.words(i));
      by.repeats.push_back(m.counts[i]);
      by.reversed.push_back(f.backward());
    }
    out.by = by;
  }
  return out;
}

ChoicePlan::Answer ChoicePlan::by_members(bool by_delta, const Rational& at, double pair_upper) const {
  PrecisionScope scope(std::max(working_precision_bits(), 128u));
  Answer out;
  out.computed = true;
  out.upper = pair_upper;
  for (const std::vector<UseFamily>& roles : directions_)
    for (const UseFamily& f : roles)
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (!f.attained(i)) continue;
        const NeighbouringPmfs l = f.laws(i);
        const LowerPld pld = lower_pld(l.p, l.q, l.disjoint, limits_);
        const double x = by_delta ? eps_lower(pld, at) : delta_lower(pld, at);
        if (out.by && x <= out.lower) continue;
        out.lower = x;
        out.by = AttainedBy{{f.words(i)}, {1}, {f.backward()}};
      }
  return out;
}

ChoicePlan::Answer ChoicePlan::by_program(const std::vector<Part>& parts, bool by_delta, const Rational& at,
                                          double fixed_lower, double pair_upper) const {
  // The members' laws, kept while the program reads them; each part a segment, each role a group
  // of its own in it.
  struct Which {
    std::size_t part, role, index;  // the index in the role's family
    const UseFamily& family(const std::vector<Part>& parts) const { return (*parts[part].roles)[role]; }
  };
  std::vector<NeighbouringPmfs> laws;
  std::vector<Which> which;
  ProgramQuery q;
  // A part that repeats an earlier one's families and draws (a phase again) names its menu.
  const auto same_menu = [](const Part& a, const Part& b) {
    return a.plan->weights_ == b.plan->weights_ && same_roles(*a.roles, *b.roles);
  };
  std::vector<std::size_t> menu_part;  // each menu's first part
  std::size_t distinct = 0;
  double member_uses = 0;
  for (std::size_t s = 0; s < parts.size(); ++s) {
    const ChoicePlan& plan = *parts[s].plan;
    const std::vector<UseFamily>& roles = *parts[s].roles;
    std::size_t menu = 0;
    while (menu < menu_part.size() && !same_menu(parts[menu_part[menu]], parts[s])) ++menu;
    // either(): the adversary picks each round's role too; mixture(): the role is drawn.
    q.segments.push_back({plan.uses_, plan.round_, roles.size() > 1 && plan.weights_.empty(), plan.weights_, menu});
    std::size_t here = 0;
    for (const UseFamily& f : roles) here += f.size();
    member_uses += static_cast<double>(here) * static_cast<double>(plan.uses_);
    if (menu < menu_part.size()) continue;
    menu_part.push_back(s);
    distinct += here;
  }
  // Within the limits before any law is built.
  if (distinct > kMaxProgramMembers || member_uses > kMaxMemberUses) return {};
  for (const std::size_t s : menu_part) {
    const std::vector<UseFamily>& roles = *parts[s].roles;
    for (std::size_t r = 0; r < roles.size(); ++r)
      for (std::size_t i = 0; i < roles[r].size(); ++i) {
        laws.push_back(roles[r].laws(i));
        which.push_back({s, r, i});
      }
  }
  // Client 1's inputs, one number each within a segment (a member that does not name them is an
  // input of its own).
  std::map<std::pair<std::size_t, std::string>, std::size_t> inputs;
  std::size_t unnamed = laws.size();
  std::vector<ChoiceMember> members;
  for (std::size_t m = 0; m < laws.size(); ++m) {
    const UseFamily& f = which[m].family(parts);
    const std::string named = f.words(which[m].index).inputs;
    const std::size_t input =
        named.empty() ? unnamed++ : inputs.emplace(std::make_pair(which[m].part, named), inputs.size()).first->second;
    members.push_back({&laws[m].p, &laws[m].q, laws[m].disjoint, f.attained(which[m].index), which[m].role, input,
                       q.segments[which[m].part].menu});
  }
  q.by_delta = by_delta;
  q.at = at;
  if (by_delta) {
    q.eps_high = pair_upper;
    q.eps_low = std::clamp(fixed_lower, 0.0, pair_upper);  // a lower end at another δ may pass it
  } else {
    q.delta_hint = fixed_lower;
  }
  ProgramLimits pl;
  pl.threads = limits_.threads;
  Answer out;
  // The first pass on the grid the program's own limits choose; then, while the bracket is wider
  // than kProgramTolerance, passes on finer grids within kMaxRefinedWork. Every pass bounds the
  // same worst case both ways, so the smallest upper end and the largest lower end stand; each
  // pass looks only inside the bracket the ones before left, which keeps its windows small.
  int last_scale = 0;
  double spent = 0, budget = 0, last_gap = kInf;
  for (int pass = 0;; ++pass) {
    const ProgramAnswer p = adaptive_worst_case(members, uses_, q, pl, limits_);
    if (!p.run) break;
    spent += p.work;
    if (pass == 0) budget = std::min(kMaxRefinedWork, kRefinedShare * p.work);
    const double upper = by_delta ? p.upper : std::min(1.0, p.upper);
    out.upper = out.computed ? std::min(out.upper, upper) : upper;
    out.computed = true;
    for (const ProgramAnswer::Strategy& s : p.strategies) {
      const double l = by_delta ? eps_lower(s.lower, at) : delta_lower(s.lower, at);
      if (out.by && l <= out.lower) continue;
      AttainedBy by;
      by.adaptive = true;
      for (std::size_t m = 0; m < members.size(); ++m) {
        if (s.uses[m] == 0) continue;
        const UseFamily& f = which[m].family(parts);
        const ChoicePlan& plan = *parts[which[m].part].plan;
        by.parts.push_back(f.words(which[m].index));
        if (!plan.when_.empty()) {
          const std::size_t g = which[m].role;
          by.parts.back().when = plan.when_[g] + " (probability " + to_string(plan.weights_[g]) + ")";
        }
        by.repeats.push_back(s.uses[m]);
        by.reversed.push_back(f.backward());
      }
      out.lower = l;
      out.by = by;
    }
    const double low = std::max(fixed_lower, out.by ? out.lower : 0.0);
    const double gap = out.upper - low;
    // Another pass where this one refined and narrowed (clusters of members, for one, do not
    // narrow on a finer grid) and the bracket is still wide.
    const bool refined = !p.clustered && (pass == 0 || (p.scale < last_scale && gap < 0.75 * last_gap));
    last_scale = p.scale;
    last_gap = gap;
    if (!refined || !(out.upper < kInf) || gap <= kProgramTolerance * out.upper || spent + p.work * 4 > budget)
      break;
    pl.refine_work = p.work * 4;  // a step half as long: twice the cells, at most twice the atoms
    if (by_delta) {
      q.eps_high = out.upper;
      q.eps_low = std::clamp(low, 0.0, out.upper);
    } else {
      q.delta_hint = low;
    }
  }
  return out;
}

}  // namespace corbin
