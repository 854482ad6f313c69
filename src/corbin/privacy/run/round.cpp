#include "corbin/privacy/run/round.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/dropout_floor.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"

namespace corbin {

void check_round_kind(const RoundKind& kind) {
  AccountSetting s = kind.setting;
  s.role = kind.role.value_or(TargetClient::Role::ldpq);
  if (!kind.role) {  // as drawn: any role the population has
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

Rational alone_probability(const AccountSetting& setting) {
  const PopulationCounts c = counts_of(setting);
  const std::uint64_t clients = c.ldpq + 2 * std::uint64_t(c.pairs);
  return Rational(BigInt(c.ldpq)) / Rational(BigInt(clients));
}

bool survivors_mixed(const RoundKind& kind) {
  const AccountSetting& s = kind.setting;
  return kind.dropout > 0 && s.relation == Neighbour::replace_one && !s.counts &&
         counts_of(s).pairs == 0 && s.n <= kMaxSurvivorLabels;
}

namespace {

/// `uses` uses sharing one draw of who survived (survivors_mixed): the labelled mixture over the
/// number K of surviving others, weight (1 − p)·P(Bin(n − 1, 1 − p) = K), of the population of K + 1
/// clients on LDPQ (no dropout, every other input the adversary's) composed `uses` times, and
/// with weight p of client 1 dropped (nothing of it released). Upper bounds only.
Accountant survivors_mixture(const RoundKind& kind, std::uint64_t uses, const PldLimits& limits) {
  const Rational p = kind.dropout, alive = Rational(1) - p;
  const std::size_t others = kind.setting.n - 1;
  Accountant out = Accountant::silent(limits).upper_only().compose(uses);
  Rational mass = p, choose(1);  // P(client 1 dropped); C(L, K)
  for (std::size_t k = 0; k <= others; ++k) {
    Rational w = alive * choose;
    for (std::size_t i = 0; i < k; ++i) w *= alive;
    for (std::size_t i = k; i < others; ++i) w *= p;
    choose = choose * Rational(static_cast<long>(others - k)) / Rational(static_cast<long>(k + 1));
    AccountSetting s = kind.setting;
    s.role = TargetClient::Role::ldpq;
    s.counts = PopulationCounts{k + 1, 0};
    const Accountant population = Accountant(s, limits).upper_only().compose(uses);
    out = population.mixture(w / (mass + w), out, "", "");
    mass += w;
  }
  return out;
}

}  // namespace

RoundAccountants round_accountants(const RoundKind& kind, double failure_per_round, bool lower,
                                   const PldLimits& limits) {
  using Role = TargetClient::Role;
  // The caller's working precision, or what this kind's budget needs where that is more.
  PrecisionScope scope(
      std::max(working_precision_bits(), kind.setting.budget.precision_bits(kind.setting.bits)));
  const auto build = [&](Role role, const std::optional<PopulationCounts>& counts) {
    AccountSetting s = kind.setting;
    s.role = role;
    s.counts = counts;
    const Accountant a(s, limits);
    return lower ? a : a.upper_only();
  };
  const PopulationCounts c = counts_of(kind.setting);
  const bool drawn = !kind.role.has_value();
  const bool alone_drawn = c.ldpq > 0 && (drawn || kind.role == Role::ldpq);
  const bool pair_drawn = c.pairs > 0 && (drawn || kind.role != Role::ldpq);
  // Client 1's accountant in each position the draw may give it: one coordinate, and the round.
  const std::uint64_t m = kind.coordinates;
  std::optional<Accountant> alone, paired, alone_round, paired_round;
  if (survivors_mixed(kind)) {
    // Who survived is public and drawn before the adversary must commit: each round is the
    // labelled mixture over the survivors (survivors_mixture), whose coordinates share the label.
    // The lower bounds are the mechanism as run with inputs fixed before the draw
    // (dropout_mixture.hpp), one coordinate's, and the round whole where computed.
    AccountSetting s = kind.setting;
    s.role = Role::ldpq;
    const Accountant one_use = survivors_mixture(kind, 1, limits);
    alone = one_use;
    alone_round = m == 1 ? one_use : survivors_mixture(kind, m, limits);
    if (lower) {
      std::vector<AttainedLaws> laws = dropout_mixtures(s, kind.dropout, limits);
      std::vector<AttainedPlds> one, whole;
      for (const AttainedLaws& l : laws) {
        one.push_back({lower_pld(l.laws.p, l.laws.q, l.laws.disjoint, limits),
                       lower_pld(l.laws.q, l.laws.p, l.laws.disjoint, limits), l.words});
        AttainedPlds x = one.back();
        if (m > 1)
          x.words.dropout += "; of the round's " + std::to_string(m) +
                             " coordinates, which share every client's draw, one (the others' outputs dropped)";
        whole.push_back(std::move(x));
      }
      alone = alone->with_attained_plds(one);
      if (m > 1) {
        std::vector<AttainedPlds> rounds = dropout_round_lowers(s, kind.dropout, m, limits);
        whole.insert(whole.end(), rounds.begin(), rounds.end());
      }
      alone_round = alone_round->with_attained_plds(whole);
    }
  } else if (kind.dropout == 0) {
    if (alone_drawn) alone = build(Role::ldpq, kind.setting.counts);
    if (pair_drawn) paired = build(Role::leader, kind.setting.counts);
    if (alone) alone_round = alone->compose(m);
    if (paired) paired_round = paired->compose(m);
  } else {
    const DropoutFloor f =
        dropout_floor(kind.setting.n, kind.setting.gamma, kind.dropout, failure_per_round);
    // The floors bound from above only; the lower bounds are the position's mechanism as run,
    // in a round of m coordinates one coordinate's (they share the draws).
    const auto as_run = [&](const Accountant& floors, Role role, std::optional<Accountant>& one,
                            std::optional<Accountant>& round) {
      if (!lower) {
        one = floors.upper_only();
        round = one->compose(m);
        return;
      }
      AccountSetting s = kind.setting;
      s.role = role;
      std::vector<AttainedLaws> laws = dropout_mixtures(s, kind.dropout, limits);
      one = floors.with_lower_bounds(laws);
      if (m == 1) {
        round = one;
        return;
      }
      for (AttainedLaws& l : laws)
        l.words.dropout += "; of the round's " + std::to_string(m) +
                           " coordinates, which share every client's draw, one (the others' outputs dropped)";
      // And, where it is computed, the round whole: each component of who survived composed m
      // times (replace one, every client on LDPQ).
      round = floors.with_lower_bounds(laws).compose_sharing(m).with_attained_plds(
          dropout_round_lowers(s, kind.dropout, m, limits));
    };
    if (alone_drawn) as_run(build(Role::ldpq, f.alone), Role::ldpq, alone, alone_round);
    if (pair_drawn) {
      Accountant position = build(Role::ldpq, f.alone);  // its partner dropped
      if (f.paired) position = position.either(build(Role::leader, *f.paired));
      as_run(position, Role::leader, paired, paired_round);
    }
  }
  const bool shared = kind.dropout > 0 && m > 1;
  if (!alone || !paired) {
    const Accountant& one = alone ? *alone : *paired;
    return {one, alone ? *alone_round : *paired_round, one, false, shared};
  }
  if (kind.any_role_sequence)
    return {alone->either(*paired), alone_round->either(*paired_round), alone->either(*paired), true, true};
  const Rational w = alone_probability(kind.setting);
  const char* const when_alone = "client 1 alone";
  const char* const when_paired = "client 1 paired";
  return {alone->mixture(w, *paired, when_alone, when_paired),
          alone_round->mixture(w, *paired_round, when_alone, when_paired), alone->either(*paired), true, true};
}

Accountant phase_of(const RoundAccountants& r, std::uint64_t m, std::uint64_t rounds) {
  // One position and fresh draws in every coordinate: all m·R uses in one power, a round's m
  // coordinates configured together (Accountant::coordinates' search of the adversary's choices).
  return r.per_round ? r.round.compose(rounds) : r.coordinate.coordinates(m, rounds);
}

DeltaSplit split_delta(const Rational& delta, std::uint64_t dropout_rounds) {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
  DeltaSplit out{delta};
  if (dropout_rounds == 0) return out;
  out.mechanism = delta / 2;
  out.failure_per_round = failure_budget_per_round(out.mechanism, dropout_rounds);
  out.failure = directed::mul_up(out.failure_per_round, static_cast<double>(dropout_rounds));
  return out;
}

}  // namespace corbin
