#include "corbin/privacy/run/round.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "corbin/number/error.hpp"
#include "corbin/privacy/worst_case/dropout_mixture.hpp"
#include "corbin/privacy/worst_case/survivors.hpp"

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

namespace {

using Role = TargetClient::Role;

/// The positions the draw may give client 1 in a round of this kind: alone (an LDPQ position),
/// in a pair.
struct Positions {
  bool alone = false, paired = false;
};
Positions positions_of(const RoundKind& kind) {
  const PopulationCounts c = counts_of(kind.setting);
  const bool drawn = !kind.role.has_value();
  return {c.ldpq > 0 && (drawn || kind.role == Role::ldpq), c.pairs > 0 && (drawn || kind.role != Role::ldpq)};
}

}  // namespace

bool survivors_exact(const RoundKind& kind) {
  if (kind.dropout == 0) return false;
  const Positions at = positions_of(kind);
  return survivor_population_count(counts_of(kind.setting), at.alone, at.paired) <= kMaxSurvivorPopulations;
}

namespace {

/// The accountants (upper bounds) of the populations a round's survivors may form, each built
/// once, and composed once to each number of uses, for every position of client 1 that reaches it.
class Populations {
 public:
  Populations(const AccountSetting& setting, const PldLimits& limits) : setting_(setting), limits_(limits) {}
  const Accountant& of(const SurvivorPopulation& s, std::uint64_t uses) {
    const Key key{static_cast<int>(s.role), s.counts.ldpq, s.counts.pairs, uses};
    auto it = built_.find(key);
    if (it != built_.end()) return it->second;
    if (uses == 1) {
      AccountSetting a = setting_;
      a.role = s.role;
      a.counts = s.counts;
      return built_.emplace(key, Accountant(a, limits_).bounding()).first->second;
    }
    const Accountant composed = of(s, 1).coordinates(uses);
    return built_.emplace(key, composed).first->second;
  }

 private:
  using Key = std::tuple<int, std::size_t, std::size_t, std::uint64_t>;
  AccountSetting setting_;
  PldLimits limits_;
  std::map<Key, Accountant> built_;
};

/// Client 1's position in a dropout round, mixed over who survived (round.hpp): with probability p
/// it dropped (nothing of it released), else it is in one of the populations
/// (worst_case/survivors.hpp), each with its exact weight.
struct SurvivorsMixture {
  Rational dropped;
  std::vector<SurvivorPopulation> parts;
  /// `uses` uses sharing the draw (a round's coordinates): each population composed `uses` times,
  /// then the labelled mixture. Upper bounds only, each population's family kept for the search of
  /// the adversary's choices given the draw (Accountant::bounding: the other clients' inputs chosen
  /// after it, so no strategy over them is attained). Over rounds the ladder's rungs stand for the
  /// true draws too: each round a coupling drawn without the data puts the rung's survivors within
  /// the true ones, so an adversary shown the rung can draw the true survivors given it, play the
  /// true adversary's choices and add the extra survivors' outputs itself (a post-processing): the
  /// program over the rungs bounds the adaptive adversary of the round as run.
  Accountant composed(std::uint64_t uses, Populations& populations, const PldLimits& limits) const {
    return mixed_over_survivors(
        dropped, parts, [&](const SurvivorPopulation& s) { return populations.of(s, uses); }, uses, limits);
  }
};

SurvivorsMixture survivors_mixture(const RoundKind& kind, Role position) {
  if (survivors_exact(kind))
    return {kind.dropout,
            survivor_populations(counts_of(kind.setting), position, kind.dropout, kMaxSurvivorPopulations)};
  return {kind.dropout, survivor_ladder(kind.setting.n, kind.setting.gamma, position, kind.dropout)};
}

/// Client 1's lower ends in a dropout round from `role`'s position: the mechanism as run with the
/// inputs fixed before the draw (dropout_mixture.hpp), one adversary among those the upper ends
/// cover. One coordinate's; and the round's, whose m coordinates share every client's draw, so
/// that composing one coordinate's mixture m times would redraw who drops in each (it gave lower
/// ends above the exact ε): one coordinate with the others' outputs dropped (a post-processing),
/// and the round whole (replace one: exactly with every client on LDPQ up to
/// kMaxRoundMixtureClients, else the ladder of survivor ceilings). Past the exact mixtures' limits
/// one coordinate's is the ladder's too; under remove one there is none past them.
struct AsRunLowers {
  std::vector<AttainedPlds> coordinate, round;
  /// The mixtures over who survived, as laws (m = 1: for the adaptive search over rounds).
  std::vector<AttainedLaws> mixtures;
};
AsRunLowers as_run_lowers(const RoundKind& kind, Role role, const PldLimits& limits) {
  AccountSetting s = kind.setting;
  s.role = role;
  AsRunLowers out;
  for (const AttainedLaws& l : dropout_mixtures(s, kind.dropout, limits)) {
    out.coordinate.push_back(attained_plds(l, limits));
    if (kind.coordinates == 1) out.mixtures.push_back(l);
  }
  // Where the mixture is not computed, or drops the number of survivors, the ladder of survivor
  // ceilings (replace one only) beside it: at n = 300 on LDPQ, dropout 1/10, δ = 10^-5, the count
  // alone gave 0.24170 where the inputs' exact ε is 0.25095. For the round, the ladder where the
  // round's own mixture is not computed; both from one choice of configurations.
  const std::uint64_t m = kind.coordinates;
  std::vector<AttainedPlds> whole;
  if (m > 1) whole = dropout_round_lowers(s, kind.dropout, m, limits);
  std::vector<std::uint64_t> uses;
  if (!mixture_keeps_survivors(s)) uses.push_back(1);
  if (m > 1 && whole.empty()) uses.push_back(m);
  const std::vector<std::vector<AttainedPlds>> ladders = dropout_ladder_lowers(s, kind.dropout, uses, limits);
  for (std::size_t u = 0; u < uses.size(); ++u) {
    std::vector<AttainedPlds>& into = uses[u] == 1 ? out.coordinate : whole;
    into.insert(into.end(), ladders[u].begin(), ladders[u].end());
  }
  if (m == 1) {
    out.round = out.coordinate;
    return out;
  }
  for (AttainedPlds x : out.coordinate) {
    x.words.dropout += "; of the round's " + std::to_string(m) +
                       " coordinates, which share every client's draw, one (the others' outputs dropped)";
    out.round.push_back(std::move(x));
  }
  out.round.insert(out.round.end(), whole.begin(), whole.end());
  return out;
}

}  // namespace

RoundAccountants round_accountants(const RoundKind& kind, bool lower, const PldLimits& limits) {
  // The caller's working precision, or what this kind's budget needs where that is more.
  PrecisionScope scope(
      std::max(working_precision_bits(), kind.setting.budget.precision_bits(kind.setting.bits)));
  const auto build = [&](Role role) {
    AccountSetting s = kind.setting;
    s.role = role;
    const Accountant a(s, limits);
    return lower ? a : a.upper_only();
  };
  const Positions at = positions_of(kind);
  // Client 1's accountant in each position the draw may give it: one coordinate, and the round.
  const std::uint64_t m = kind.coordinates;
  std::optional<Accountant> alone, paired, alone_round, paired_round;
  // A dropout round's position from its upper bounds, one use and the round's m (which share
  // the draw), with the mechanism as run below them.
  const auto position = [&](Role role, const Accountant& one_use, const Accountant& round,
                            std::optional<Accountant>& one, std::optional<Accountant>& whole) {
    if (!lower) {
      one = one_use;
      whole = round;
      return;
    }
    const AsRunLowers l = as_run_lowers(kind, role, limits);
    one = one_use.with_attained_plds(l.coordinate);
    whole = round.with_attained_plds(l.round);
    // One coordinate a round: the adversary may choose each round's inputs after the rounds
    // before; a strategy over the mixtures is attained (at n = 4, e^ε_p = 3, dropout 1/10,
    // δ = 1/10, two rounds, the best fixed inputs give 0.963).
    if (!l.mixtures.empty()) {
      one = one->with_adaptive_lower(l.mixtures);
      whole = whole->with_adaptive_lower(l.mixtures);
    }
  };
  if (kind.dropout == 0) {
    if (at.alone) alone = build(Role::ldpq);
    if (at.paired) paired = build(Role::leader);
    // m coordinates configured together (the adversary's choices: one round's multisets).
    if (alone) alone_round = alone->coordinates(m);
    if (paired) paired_round = paired->coordinates(m);
  } else {
    // Who survived is drawn before the adversary must commit, and revealed (round.hpp): each
    // position is the labelled mixture over the survivors' populations (or the ladder's, which
    // dominate them), whose coordinates share the label.
    Populations populations(kind.setting, limits);
    const auto mixed = [&](Role role, std::optional<Accountant>& one, std::optional<Accountant>& whole) {
      const SurvivorsMixture mix = survivors_mixture(kind, role);
      const Accountant one_use = mix.composed(1, populations, limits);
      position(role, one_use, m == 1 ? one_use : mix.composed(m, populations, limits), one, whole);
    };
    if (at.alone) mixed(Role::ldpq, alone, alone_round);
    if (at.paired) mixed(Role::leader, paired, paired_round);
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
  return r.per_round ? r.round.coordinates(1, rounds) : r.coordinate.coordinates(m, rounds);
}

void check_delta(const Rational& delta) {
  if (delta <= 0 || delta >= 1) throw invalid_argument("delta", to_string(delta), "in (0, 1)");
}

}  // namespace corbin
