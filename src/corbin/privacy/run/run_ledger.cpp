#include "corbin/privacy/run/run_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/run/choice_plan.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"

namespace corbin {

namespace {

using namespace directed;

/// a·b for counts, or invalid_argument(name) past kMaxCompositions.
std::uint64_t times(std::uint64_t a, std::uint64_t b, const char* name) {
  if (b != 0 && a > kMaxCompositions / b)
    throw invalid_argument(name, std::to_string(a) + "·" + std::to_string(b),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  return a * b;
}

std::uint64_t plus(std::uint64_t a, std::uint64_t b, const char* name) {
  if (a > kMaxCompositions - b)
    throw invalid_argument(name, std::to_string(a) + " + " + std::to_string(b),
                           "at most " + std::to_string(kMaxCompositions) + " in all");
  return a + b;
}

/// The uses a phase's round holds: a kind's m coordinates, step_rounds' m, else 1.
std::uint64_t uses_per_round(const RunLedger::Phase& p) {
  return p.kind ? p.kind->coordinates : std::max<std::uint64_t>(p.coordinates, 1);
}

bool same_kind(const RoundKind& a, const RoundKind& b) {
  return same_setting(a.setting, b.setting) && a.role == b.role &&
         a.any_role_sequence == b.any_role_sequence && a.dropout == b.dropout &&
         a.coordinates == b.coordinates;
}

}  // namespace

/// A phase's kind or use never changes while it is kept: step() only adds rounds to a last phase
/// of the same kind, and with_budget gives fresh memos.
struct RunLedger::PhaseMemo {
  std::mutex mutex;
  std::optional<RoundAccountants> rounds;  ///< a kind's round, with lower bounds (build)
  /// For build_upper: what the phase composes, without lower bounds or searches, keeping its
  /// powers (a use, a kind's round where the role is drawn per round, else one coordinate of it:
  /// all m·T compositions in one power), and one use for basic composition.
  std::optional<Accountant> pair, one;
  bool per_round = true;  ///< `pair` is a round (else one coordinate)
};

const char* role_name(const ConfigurationWords& w) {
  return w.partner.empty() ? "ldpq" : "paired";
}

const char* role_name(const AttainedBy& by) {
  for (const ConfigurationWords& w : by.parts)
    if (!w.when.empty()) return "drawn";
  return by.parts.empty() ? "ldpq" : role_name(by.parts.front());
}

RunLedger::RunLedger(const PldLimits& limits) : limits_(limits) {}

void RunLedger::step(const RoundKind& kind, std::uint64_t rounds) {
  check_round_kind(kind);
  one_relation(kind.setting.relation);
  if (rounds == 0) return;
  plus(compositions(), times(kind.coordinates, rounds, "rounds"), "rounds");  // before any change
  // More rounds of the last kind lengthen its phase: one power instead of a chain of products
  // (the same bound whether the rounds come one by one or at once).
  if (!phases_.empty() && phases_.back().kind && same_kind(*phases_.back().kind, kind)) {
    phases_.back().rounds += rounds;
    return;
  }
  phases_.push_back(Phase{kind, std::nullopt, rounds, std::make_shared<PhaseMemo>()});
}

void RunLedger::step(const Accountant& use, std::uint64_t uses) {
  if (uses == 0) return;
  plus(compositions(), times(use.compositions(), uses, "uses"), "uses");
  phases_.push_back(Phase{std::nullopt, use, uses, std::make_shared<PhaseMemo>()});
}

void RunLedger::step_rounds(const Accountant& coordinate, std::uint64_t m, std::uint64_t rounds, Neighbour relation,
                            bool survivors_mixed) {
  if (m < 1) throw invalid_argument("m", "0", "at least 1");
  one_relation(relation);
  if (rounds == 0) return;
  plus(compositions(), times(coordinate.compositions(), times(m, rounds, "rounds"), "rounds"), "rounds");
  phases_.push_back(Phase{std::nullopt, coordinate, rounds, std::make_shared<PhaseMemo>(), m, relation, survivors_mixed});
}

namespace {
/// A phase's pair of datasets: its kind's, a given mechanism's, or none (a pair of laws).
std::optional<Neighbour> relation_of(const RunLedger::Phase& p) {
  return p.kind ? std::optional<Neighbour>(p.kind->setting.relation) : p.relation;
}
}  // namespace

void RunLedger::one_relation(Neighbour relation) const {
  // The run's rounds account one pair of datasets: client 1 replaced in every one, or removed.
  for (const Phase& p : phases_)
    if (const std::optional<Neighbour> r = relation_of(p); r && *r != relation)
      throw invalid_argument("relation", to_string(relation),
                             std::string("the run's (") + to_string(*r) + "): one pair of datasets for every round");
}

void RunLedger::then(const RunLedger& next) {
  for (const Phase& p : next.phases_)
    if (const std::optional<Neighbour> r = relation_of(p)) one_relation(*r);
  plus(compositions(), next.compositions(), "compositions");
  phases_.insert(phases_.end(), next.phases_.begin(), next.phases_.end());
  reordered_ = reordered_ || next.reordered_;
}

void RunLedger::repeat(std::uint64_t k) {
  if (k < 1) throw invalid_argument("compositions", std::to_string(k), "at least 1");
  times(compositions(), k, "compositions");
  if (k == 1) return;
  // The phases again, in order (copies share their memos: the same kinds), where the run's
  // program can follow them (its menus in turn are not in any order).
  if (phases_.size() > 1 && phases_.size() <= kMaxPlanParts / k) {
    const std::vector<Phase> once = phases_;
    for (std::uint64_t i = 1; i < k; ++i) phases_.insert(phases_.end(), once.begin(), once.end());
    return;
  }
  // Else each phase k times as long: the composed pairs commute (their privacy-loss
  // distributions multiply), the phases' order is lost.
  reordered_ = reordered_ || phases_.size() > 1;
  for (Phase& p : phases_) p.rounds *= k;
}

std::uint64_t RunLedger::rounds() const {
  std::uint64_t out = 0;
  for (const Phase& p : phases_) out += p.rounds;
  return out;
}

std::uint64_t RunLedger::compositions() const {
  std::uint64_t out = 0;
  for (const Phase& p : phases_)
    out += p.rounds * uses_per_round(p) * (p.kind ? 1 : p.use->compositions());
  return out;
}

std::uint64_t RunLedger::survivors_mixed_rounds() const {
  std::uint64_t out = 0;
  for (const Phase& p : phases_)
    if ((p.kind && p.kind->dropout > 0) || p.survivors_mixed) out += p.rounds;
  return out;
}

bool RunLedger::dropout_rounds_bounded_below() const {
  for (const Phase& p : phases_)
    if (p.kind && p.kind->dropout > 0 && p.kind->setting.relation == Neighbour::remove_one &&
        !mixture_computable(p.kind->setting))
      return false;  // remove one past the mixture's limits (replace one has the ladder)
  return true;
}

RunLedger::Built RunLedger::build() const {
  Built out;
  for (const Phase& p : phases_) {
    std::optional<Accountant> one, phase;  // one coordinate of one round; the whole phase
    if (p.use) {
      one = *p.use;
      phase = p.coordinates ? one->coordinates(p.coordinates, p.rounds) : one->compose(p.rounds);
    } else {
      const RoundAccountants r = [&] {
        const std::lock_guard<std::mutex> lock(p.memo->mutex);
        PhaseMemo& kept = *p.memo;
        if (!kept.rounds) {
          RoundAccountants made = round_accountants(*p.kind, true, limits_);
          made.round = made.round.keeping_powers();  // the next query's powers: one product more
          made.coordinate = made.coordinate.keeping_powers();
          kept.rounds = std::move(made);
        }
        return *kept.rounds;
      }();
      one = r.any_role;  // basic composition bounds each use given the ones before it
      phase = phase_of(r, p.kind->coordinates, p.rounds);
    }
    out.uses.emplace_back(*one, p.rounds * uses_per_round(p));
    out.run = out.run ? out.run->then(*phase) : *phase;
  }
  if (reordered_ && out.run) out.run = out.run->any_order();
  return out;
}

RunLedger::Built RunLedger::build_upper() const {
  Built out;
  for (const Phase& p : phases_) {
    const std::lock_guard<std::mutex> lock(p.memo->mutex);
    PhaseMemo& kept = *p.memo;
    if (!kept.pair) {
      if (p.use) {
        kept.one = p.use->upper_only();
        kept.pair = kept.one->keeping_powers();
        kept.per_round = false;  // one use: all of the phase's in one power
      } else {
        // build()'s round where it has one (sharing its kept powers), else one without lower bounds.
        const RoundAccountants r =
            kept.rounds ? *kept.rounds : round_accountants(*p.kind, false, limits_);
        kept.per_round = r.per_round;  // as phase_of composes
        kept.pair = (r.per_round ? r.round : r.coordinate).upper_only();
        if (!kept.rounds) kept.pair = kept.pair->keeping_powers();
        kept.one = r.any_role.upper_only();
      }
    }
    const std::uint64_t m = uses_per_round(p);
    const Accountant phase = kept.pair->compose(kept.per_round ? p.rounds : m * p.rounds);
    out.uses.emplace_back(*kept.one, p.rounds * m);
    out.run = out.run ? out.run->then(phase) : phase;
  }
  return out;
}

double RunLedger::basic_epsilon(const Built& b, const Rational& delta) const {
  const Rational each = delta / Rational(static_cast<long>(compositions()));
  double out = 0;
  for (const auto& [one, uses] : b.uses) out = add_up(out, mul_up(static_cast<double>(uses), one.epsilon_upper(each)));
  return out;
}

double RunLedger::basic_delta(const Built& b, const Rational& eps) const {
  const Rational each = eps / Rational(static_cast<long>(compositions()));
  double out = 0;
  for (const auto& [one, uses] : b.uses) out = add_up(out, mul_up(static_cast<double>(uses), one.delta_upper(each)));
  return std::min(1.0, out);
}

double RunLedger::epsilon_upper(const Rational& delta) const {
  check_delta(delta);
  if (phases_.empty()) return 0;
  const Built b = build_upper();
  return std::min(b.run->epsilon_upper(delta), basic_epsilon(b, delta));  // as epsilon()
}

double RunLedger::delta_upper(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  if (phases_.empty()) return 0;
  const Built b = build_upper();
  return std::min({1.0, b.run->delta_upper(eps), basic_delta(b, eps)});  // as delta()
}

RunLedger::Answer RunLedger::epsilon(const Rational& delta) const {
  check_delta(delta);
  Answer a;
  if (phases_.empty()) return a;
  const Built b = build();
  a.basic = basic_epsilon(b, delta);
  // Basic composition is a valid bound too (each use (ε_i, δ/k) given the ones before it): the
  // smaller is the answer.
  const double upper = std::min(b.run->epsilon_upper(delta), a.basic);
  a.bounds = {std::clamp(b.run->epsilon_lower(delta), 0.0, upper), upper};
  a.attained = b.run->attaining_epsilon(delta);
  a.moments = b.run->epsilon_from_moments(delta);
  a.cover(*b.run);
  return a;
}

RunLedger::Answer RunLedger::delta(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  Answer a;
  if (phases_.empty()) return a;
  const Built b = build();
  a.basic = basic_delta(b, eps);
  // Basic composition is a valid bound too: the smaller is the answer.
  const double upper = std::min({1.0, b.run->delta_upper(eps), a.basic});
  a.bounds = {std::clamp(b.run->delta_lower(eps), 0.0, upper), upper};
  a.attained = b.run->attaining_delta(eps);
  a.moments = std::min(1.0, b.run->delta_from_moments(eps));
  a.cover(*b.run);
  return a;
}

RunLedger RunLedger::with_budget(const Budget& budget) const {
  RunLedger out = *this;
  std::map<const PhaseMemo*, std::shared_ptr<PhaseMemo>> fresh;  // copies of a phase share theirs
  for (Phase& p : out.phases_) {
    if (!p.kind) throw invalid_argument("budget", budget.describe(), "set only where every phase is a kind of round");
    p.kind->setting.budget = budget;
    std::shared_ptr<PhaseMemo>& memo = fresh[p.memo.get()];
    if (!memo) memo = std::make_shared<PhaseMemo>();  // another kind of round
    p.memo = memo;
  }
  return out;
}

namespace {

/// v (> 0) as a dyadic rational of about 30 significant bits: a short exact budget, finer than the
/// search's step.
Rational dyadic(double v) {
  const int shift = 30 - std::ilogb(v);
  const Rational m(BigInt(std::llround(std::ldexp(v, shift))));
  return shift >= 0 ? Rational(m / Rational(pow2(static_cast<unsigned long>(shift))))
                    : Rational(m * Rational(pow2(static_cast<unsigned long>(-shift))));
}

}  // namespace

LargestBudget largest_eps(const RunLedger& ledger, const Rational& target, const Rational& delta) {
  if (target <= 0) throw invalid_argument("target eps", to_string(target), "> 0");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  const Rational bottom(1, 1 << 20), top(kLargestBudgetCap);
  // The upper end epsilon() prints (with the search of the adversary's actual choices,
  // choice_plan.hpp, which the fast epsilon_upper leaves out): what meets the target meets it as
  // printed, and what is refuted is refuted as printed.
  const auto upper_at = [&](const Rational& eps) {
    return ledger.with_budget(Budget::make(Budget::Kind::eps, eps)).epsilon(delta).bounds.upper;
  };
  const double goal = to_double(target);
  const bool meets = to_rational(goal) <= target;  // compare against a double no larger than target
  const double limit = meets ? goal : std::nextafter(goal, 0.0);
  // Each trial is a whole ledger (about 0.5 s at n = 100, 100 rounds), so the search
  // spends few: ε_upper grows with ε_p about as a power of it (ε_p·√(k ln 1/δ) for small budgets,
  // k·ε_p for large ones), so it runs on log ε_p against log ε_upper. The first trial is at the
  // target (one use gives at most ε_p); the bracket is found by steps of (target/ε_upper) (at
  // least 2 each way); inside it a secant step (Illinois: an end kept twice has its value halved,
  // so that it moves too), at least a quarter of the width asked for from either end, or the
  // geometric midpoint where an end is infinite. About a dozen trials where bisection from 2^−20
  // took up to 46.
  struct Trial {
    Rational eps;
    double upper;
  };
  std::optional<Trial> lo, hi;  // the largest ε_p found to meet the target, the smallest found not to
  unsigned trials = 0;
  const auto trial = [&](const Rational& x) {
    ++trials;
    const Trial t{x, upper_at(x)};
    if (t.upper <= limit) {
      if (!lo || x > lo->eps) lo = t;
    } else if (!hi || x < hi->eps) {
      hi = t;
    }
  };
  trial(std::clamp(dyadic(goal), bottom, top));
  while (!lo || !hi) {
    if (lo) {
      if (lo->eps >= top) return {lo->eps, std::nullopt, lo->upper, trials};  // every ε_p up to the cap meets it
      const double factor = lo->upper > 0 ? std::max(2.0, goal / lo->upper) : 64.0;
      trial(std::min(top, dyadic(to_double(lo->eps) * factor)));
    } else {
      if (hi->eps <= bottom) return {std::nullopt, hi->eps, hi->upper, trials};  // even 2^−20 is too much
      const double factor = std::isfinite(hi->upper) ? std::min(0.5, goal / hi->upper) : 1.0 / 64;
      trial(std::max(bottom, dyadic(to_double(hi->eps) * factor)));
    }
  }
  int kept_lo = 0, kept_hi = 0;  // how many trials in a row left each end where it was
  while (hi->eps - lo->eps > lo->eps / (1 << 20)) {
    const double a = std::log(to_double(lo->eps)), b = std::log(to_double(hi->eps));
    double fa = std::log(lo->upper / goal), fb = std::log(hi->upper / goal);  // fa <= 0 < fb
    if (kept_lo >= 2) fa = std::ldexp(fa, 1 - kept_lo);
    if (kept_hi >= 2) fb = std::ldexp(fb, 1 - kept_hi);
    // Where an end's ε_upper is infinite (client 1 paired past some budget: S1) or 0 there is no
    // secant: the geometric midpoint (a secant through ∞ stepped a quarter of the width asked
    // for at a time: minutes of trials).
    const bool secant = std::isfinite(fa) && std::isfinite(fb);
    const double step = secant ? b - fb * (b - a) / (fb - fa) : (a + b) / 2;
    Rational x = std::isfinite(step) ? dyadic(std::exp(step)) : lo->eps;
    // A step never shorter than a quarter of the width asked for, so that the end the secant
    // approaches from one side is passed, and the other end comes in (Brent's rule).
    const Rational least = lo->eps / (1 << 22);
    if (x < lo->eps + least) x = lo->eps + least;
    if (x > hi->eps - least) x = hi->eps - least;
    if (x <= lo->eps || x >= hi->eps) x = (lo->eps + hi->eps) / 2;
    const Rational was_lo = lo->eps;
    trial(x);
    kept_lo = lo->eps == was_lo ? kept_lo + 1 : 0;
    kept_hi = lo->eps == was_lo ? 0 : kept_hi + 1;
  }
  return {lo->eps, hi->eps, lo->upper, trials};
}

}  // namespace corbin
