#include "corbin/privacy/run/run_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/dropout_floor.hpp"
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

/// The populations client 1 may be in during one round of `kind`, each with its role: without
/// dropout the population's roles (or the fixed one); with dropout the floors' populations, where
/// a paired client whose partner drops is alone.
std::vector<AccountSetting> roles_of(const RoundKind& kind, double failure_per_round) {
  using Role = TargetClient::Role;
  std::vector<AccountSetting> out;
  const auto with = [&](Role role, std::optional<PopulationCounts> counts) {
    AccountSetting s = kind.setting;
    s.role = role;
    s.counts = counts;
    out.push_back(s);
  };
  const bool any = !kind.role.has_value();
  if (kind.dropout == 0) {
    const PopulationCounts c = counts_of(kind.setting);
    if ((any || kind.role == Role::ldpq) && c.ldpq > 0) with(Role::ldpq, kind.setting.counts);
    if ((any || kind.role == Role::leader) && c.pairs > 0) with(Role::leader, kind.setting.counts);
    return out;
  }
  const DropoutFloor f =
      dropout_floor(kind.setting.n, kind.setting.gamma, kind.dropout, failure_per_round);
  with(Role::ldpq, f.alone);  // in an LDPQ position, or its partner dropped
  if (kind.role != Role::ldpq && f.paired) with(Role::leader, *f.paired);
  return out;
}

/// The lower bounds of one dropout round of `kind`: the mixture over who drops out, for each
/// role client 1 may have in the full population (dropout_mixture.hpp).
std::vector<AttainedLaws> mixtures_of(const RoundKind& kind, const PldLimits& limits) {
  using Role = TargetClient::Role;
  std::vector<AttainedLaws> out;
  const PopulationCounts c = counts_of(kind.setting);
  for (Role role : {Role::ldpq, Role::leader}) {
    if ((role == Role::ldpq ? c.ldpq : c.pairs) == 0 || (kind.role && kind.role != role)) continue;
    AccountSetting s = kind.setting;
    s.role = role;
    for (AttainedLaws& a : dropout_mixtures(s, kind.dropout, limits)) out.push_back(std::move(a));
  }
  return out;
}

bool same_kind(const RoundKind& a, const RoundKind& b) {
  const AccountSetting &x = a.setting, &y = b.setting;
  const bool same_counts = x.counts.has_value() == y.counts.has_value() &&
                           (!x.counts || (x.counts->ldpq == y.counts->ldpq && x.counts->pairs == y.counts->pairs));
  return x.n == y.n && x.gamma == y.gamma && x.budget.kind == y.budget.kind && x.budget.value == y.budget.value &&
         x.center == y.center && x.radius == y.radius && x.bits == y.bits && x.variant == y.variant &&
         x.relation == y.relation && same_counts && a.role == b.role && a.dropout == b.dropout &&
         a.coordinates == b.coordinates;
}

}  // namespace

void check_round_kind(const RoundKind& kind) {
  AccountSetting s = kind.setting;
  s.role = kind.role.value_or(TargetClient::Role::ldpq);
  if (!kind.role) {  // the worst role: any the population has
    const PopulationCounts c = counts_of(s);
    if (c.ldpq == 0) s.role = TargetClient::Role::leader;
  }
  if (kind.coordinates < 1 || kind.coordinates > kMaxCompositions)
    throw invalid_argument("m", std::to_string(kind.coordinates),
                           "in [1, " + std::to_string(kMaxCompositions) + "]");
  if (kind.dropout < 0 || kind.dropout >= 1)
    throw invalid_argument("dropout", to_string(kind.dropout), "in [0, 1)");
  if (kind.dropout > 0 && s.counts)
    throw invalid_argument("dropout", to_string(kind.dropout), "0 where the survivors are given");
  check_account_setting(s);
}

const char* role_name(const ConfigurationWords& w) {
  return w.partner.empty() ? "ldpq" : "paired";
}

RunLedger::RunLedger(const PldLimits& limits) : limits_(limits) {}

void RunLedger::step(const RoundKind& kind, std::uint64_t rounds) {
  check_round_kind(kind);
  if (rounds == 0) return;
  plus(compositions(), times(kind.coordinates, rounds, "rounds"), "rounds");  // before any change
  // More rounds of the last kind lengthen its phase: one power instead of a chain of products
  // (the same bound whether the rounds come one by one or at once).
  if (!phases_.empty() && phases_.back().kind && same_kind(*phases_.back().kind, kind)) {
    phases_.back().rounds += rounds;
    return;
  }
  phases_.push_back(Phase{kind, std::nullopt, rounds});
}

void RunLedger::step(const Accountant& use, std::uint64_t uses) {
  if (uses == 0) return;
  plus(compositions(), times(use.compositions(), uses, "uses"), "uses");
  phases_.push_back(Phase{std::nullopt, use, uses});
}

void RunLedger::then(const RunLedger& next) {
  plus(compositions(), next.compositions(), "compositions");
  phases_.insert(phases_.end(), next.phases_.begin(), next.phases_.end());
}

void RunLedger::repeat(std::uint64_t k) {
  // Compositions commute (their privacy-loss distributions multiply), so k times the whole run
  // is each phase k times as long.
  if (k < 1) throw invalid_argument("compositions", std::to_string(k), "at least 1");
  times(compositions(), k, "compositions");
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
    out += p.rounds * (p.kind ? p.kind->coordinates : p.use->compositions());
  return out;
}

std::uint64_t RunLedger::dropout_rounds() const {
  std::uint64_t out = 0;
  for (const Phase& p : phases_)
    if (p.kind && p.kind->dropout > 0) out += p.rounds;
  return out;
}

bool RunLedger::dropout_rounds_bounded_below() const {
  for (const Phase& p : phases_)
    if (p.kind && p.kind->dropout > 0 && !mixture_computable(p.kind->setting)) return false;
  return true;
}

RunLedger::Built RunLedger::build(double failure_per_round) const {
  Built out;
  for (const Phase& p : phases_) {
    std::optional<Accountant> one, phase;  // one coordinate of one round; the whole phase
    if (p.use) {
      one = *p.use;
      phase = one->compose(p.rounds);
    } else {
      const RoundKind& k = *p.kind;
      // The caller's working precision, or what this kind's budget needs where that is more.
      PrecisionScope scope(std::max(working_precision_bits(), k.setting.budget.precision_bits(k.setting.bits)));
      const std::vector<AccountSetting> roles = roles_of(k, failure_per_round);
      // With dropout the floors' populations bound a round from above only; its lower bounds
      // come from the full population with every client dropping (dropout_mixture.hpp),
      // carried by the first role's accountant (an either keeps both roles' lower bounds).
      const auto role_accountant = [&](const AccountSetting& s, bool first) {
        if (k.dropout == 0) return Accountant(s, limits_);
        return Accountant(s, limits_).with_lower_bounds(first ? mixtures_of(k, limits_)
                                                              : std::vector<AttainedLaws>{});
      };
      if (roles.size() == 1) {  // one role: all m·T compositions in one power
        one = role_accountant(roles.front(), true);
        phase = one->compose(k.coordinates * p.rounds);
      } else {  // the role is drawn per round: the either of the rounds, then the rounds
        std::optional<Accountant> round;
        for (const AccountSetting& s : roles) {
          const Accountant a = role_accountant(s, !one.has_value());
          const Accountant m = a.compose(k.coordinates);
          one = one ? one->either(a) : a;
          round = round ? round->either(m) : m;
        }
        phase = round->compose(p.rounds);
      }
    }
    const std::uint64_t uses = p.rounds * (p.kind ? p.kind->coordinates : 1);
    out.uses.emplace_back(*one, uses);
    out.run = out.run ? out.run->then(*phase) : *phase;
  }
  return out;
}

RunLedger::Answer RunLedger::epsilon(const Rational& delta) const {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  Answer a;
  a.delta_mechanism = delta;
  if (phases_.empty()) return a;
  const std::uint64_t dropped = dropout_rounds();
  if (dropped > 0) {
    a.delta_mechanism = delta / 2;
    a.failure_per_round = failure_budget_per_round(a.delta_mechanism, dropped);
    a.failure = mul_up(a.failure_per_round, static_cast<double>(dropped));
  }
  const Built b = build(a.failure_per_round);
  const double upper = b.run->epsilon_upper(a.delta_mechanism);
  a.bounds = {std::clamp(b.run->epsilon_lower(delta), 0.0, upper), upper};
  a.attained = b.run->attaining_epsilon(delta);
  a.moments = b.run->epsilon_from_moments(a.delta_mechanism);
  a.cover(*b.run);
  const Rational each = a.delta_mechanism / Rational(static_cast<long>(compositions()));
  for (const auto& [one, uses] : b.uses)
    a.basic = add_up(a.basic, mul_up(static_cast<double>(uses), one.epsilon_upper(each)));
  return a;
}

RunLedger::Answer RunLedger::delta(const Rational& eps) const {
  if (eps < 0) throw invalid_argument("eps", to_string(eps), "at least 0");
  Answer a;
  if (phases_.empty()) return a;
  const std::uint64_t dropped = dropout_rounds();
  const Rational each = eps / Rational(static_cast<long>(compositions()));
  // Without dropout one build; with it, each total failure budget of the ladder, the smallest
  // upper bound kept (each is a bound: the choice may depend on ε, not on the data).
  std::vector<double> betas{0};
  if (dropped > 0) {
    betas.clear();
    for (double total : kFailureLadder) betas.push_back(failure_budget_per_round(to_rational(total), dropped));
  }
  bool first = true;
  for (double beta : betas) {
    const Built b = build(beta);
    const double failure = mul_up(beta, static_cast<double>(dropped));
    const double upper = std::min(1.0, add_up(b.run->delta_upper(eps), failure));
    if (!first && upper >= a.bounds.upper) continue;
    first = false;
    a.bounds = {b.run->delta_lower(eps), upper};
    a.attained = b.run->attaining_delta(eps);
    a.failure_per_round = beta;
    a.failure = failure;
    a.cover(*b.run);
    a.moments = std::min(1.0, add_up(b.run->delta_from_moments(eps), failure));
    a.basic = failure;
    for (const auto& [one, uses] : b.uses)
      a.basic = add_up(a.basic, mul_up(static_cast<double>(uses), one.delta_upper(each)));
    a.basic = std::min(1.0, a.basic);
  }
  a.bounds.lower = std::clamp(a.bounds.lower, 0.0, a.bounds.upper);
  return a;
}

RunLedger RunLedger::with_budget(const Budget& budget) const {
  RunLedger out = *this;
  for (Phase& p : out.phases_) {
    if (!p.kind) throw invalid_argument("budget", budget.describe(), "set only where every phase is a kind of round");
    p.kind->setting.budget = budget;
  }
  return out;
}

LargestBudget largest_eps(const RunLedger& ledger, const Rational& target, const Rational& delta) {
  if (target <= 0) throw invalid_argument("target eps", to_string(target), "> 0");
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  const Rational top(64);
  const auto upper_at = [&](const Rational& eps) {
    return ledger.with_budget(Budget::make(Budget::Kind::eps, eps)).epsilon(delta).bounds.upper;
  };
  const double goal = to_double(target);
  const bool meets = to_rational(goal) <= target;  // compare against a double no larger than target
  const double limit = meets ? goal : std::nextafter(goal, 0.0);
  LargestBudget out;
  Rational lo(0), hi(1, 1 << 20);
  double at_lo = 0, at = upper_at(hi);
  while (at <= limit) {
    lo = hi;
    at_lo = at;
    if (hi >= top) return {lo, std::nullopt, at_lo};
    hi *= 2;
    at = upper_at(hi);
  }
  if (lo == 0) return {std::nullopt, hi, at};
  while (hi - lo > lo / (1 << 20)) {
    const Rational mid = (lo + hi) / 2;
    const double x = upper_at(mid);
    if (x <= limit) {
      lo = mid;
      at_lo = x;
    } else {
      hi = mid;
    }
  }
  return {lo, hi, at_lo};
}

}  // namespace corbin
