#pragma once
// One round of Theorem 3's mechanism as it runs, for client 1: the role rule and the dropout
// split, in one place for every run accountant (run_ledger.hpp: `corbin account`, `corbin fl`,
// `corbin check`, Python's corbin.Accountant).
//
// The role rule: drawn roles, a labelled mixture. Each round the server shuffles the clients,
// independently of the data, and puts the first ⌊γn⌋ (and an odd one out) on LDPQ, the rest in
// CorBin pairs: client 1 is alone with probability w = L/n (L LDPQ clients of n), else paired.
// The roles are public (the pairs share a coin), so the release is (roles, sums), and the pair
// of laws of a round is the labelled mixture w·(alone) + (1 − w)·(paired), the label with the
// same law in both worlds (pld.hpp: mixture). Its upper bound mixes each role's dominating pair
// (each dominates its role's configurations, chosen by other clients who know the roles); its
// lower bound mixes an attained configuration of each role with client 1 at the same inputs.
// Composed over the rounds this is exactly the mixture over role sequences, each with its
// probability: the privacy of the mechanism as run. It is tighter than a pair dominating both
// roles in every round (Accountant::either, a bound for a client whose every role an adversary
// may choose), which is kept for basic composition, where each use is bounded given the ones
// before it (and so given the role), and for a kind that asks for it (`any_role_sequence`: a
// guarantee that does not rest on the draw). A kind may also fix the role: the guarantee for a
// client whose draws gave it that role every round.
//
// With dropout (each client, client 1 included, drops independently with probability p), the
// upper bound under replace one is the labelled mixture over who survived (survivors_mixed,
// below; worst_case/survivors.hpp): over the populations themselves where they are few
// (survivors_exact), else over the ladder of populations that dominates their law, with no share
// of δ either way. Under remove one the server sees a sum whose support tells how many survived,
// and client 1's survival has different laws in the two worlds, so no such mixture applies: there
// the upper bound takes the population every round is guaranteed except with probability β
// (dropout_floor.hpp), and δ is split once (split_delta): half for the mechanism, half for the
// floors' failures over the run's floored rounds (a union bound). The lower bound is the mechanism
// as run (dropout_mixture.hpp): a round's m coordinates share every client's draw, so the m-fold
// composition of one coordinate's mixture is not the round's law (it redraws who drops for each
// coordinate; it gave lower ends above the exact ε). The round's lower bound is one coordinate's
// (a post-processing of the round's release) and, where computed (replace one, every client on
// LDPQ), the round whole (dropout_round_lowers).

#include <cstdint>
#include <optional>

#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// One kind of round.
struct RoundKind {
  AccountSetting setting;  ///< n, γ, the budget, c, r, d, variant, relation (its role: `role`)
  std::optional<TargetClient::Role> role;  ///< client 1's role in every round; none: as drawn
  /// With no fixed role: every sequence of roles, even one an adversary picks (the pair
  /// dominating both, Accountant::either, every round), instead of the draw's mixture.
  bool any_role_sequence = false;
  Rational dropout{0};                     ///< each client's dropout probability, in [0, 1)
  std::uint64_t coordinates = 1;           ///< the model's m
};

/// Raises invalid_argument naming the parameter: what check_account_setting checks, m in [1,
/// kMaxCompositions] (m), dropout in [0, 1) (dropout), a fixed role the population has (role).
void check_round_kind(const RoundKind& kind);

/// Most populations a dropout round's survivors may form (worst_case/survivors.hpp:
/// survivor_population_count) for its mixture to be over them (survivors_exact), each one
/// accountant of Theorem 3's mechanism (every client on LDPQ: n clients give n); past it, the
/// ladder's (survivor_ladder: at most 22 for each role of client 1).
constexpr std::uint64_t kMaxSurvivorPopulations = 64;
/// Whether a dropout round of this kind is the labelled mixture over who survived instead of the
/// floors: replace one, the population not given. The server sees who survived, and the draw is
/// public randomness, so the adversary may choose every input knowing it: given the survivors,
/// the round is Theorem 3's mechanism for the population they form (its worst case over their
/// inputs), and which clients form it beyond its counts is independent of the data. The label
/// (who survived, with client 1's role) has the same law in both worlds and is revealed, so the
/// round is that labelled mixture exactly (pld.hpp: mixture); its m coordinates share the label,
/// so each population is composed m times before the mixture. It needs no floors and no share of δ.
bool survivors_mixed(const RoundKind& kind);
/// Whether that mixture is over the survivors' populations themselves, at most
/// kMaxSurvivorPopulations of them counted over client 1's positions; else over the ladder's.
bool survivors_exact(const RoundKind& kind);
/// Whether a round of this kind is bounded by the dropout floors (dropout_floor.hpp): a dropout
/// round not mixed over its survivors. Only such rounds take a share of δ (split_delta).
bool uses_dropout_floors(const RoundKind& kind);

/// The probability that the server's draw puts client 1 alone (L/n), in [0, 1].
Rational alone_probability(const AccountSetting& setting);

/// One round of a (checked) kind: `coordinate`, one coordinate of it (the mixture over client 1's
/// role); `round`, all m coordinates (the role drawn once for all of them); `any_role`, one
/// coordinate whatever the role (the either of the roles: basic composition's use). With dropout
/// the floors are those of β = `failure_per_round`; `lower`: with lower bounds.
struct RoundAccountants {
  Accountant coordinate, round, any_role;
  bool drawn = false;  ///< whether the draw gives client 1 two positions (else one, every round)
  /// Whether a phase of R rounds is `round` composed R times: where the role is drawn once for a
  /// round's coordinates, or where they share the clients' dropout draws (m >= 2). Else
  /// `coordinate`'s m·R uses in one power (Accountant::coordinates), the same role and fresh
  /// randomness in each.
  bool per_round = false;
};
/// A phase of `rounds` rounds (at most kMaxCompositions / m) of a kind whose round is `r`, with m
/// coordinates: the one rule of every run accountant.
Accountant phase_of(const RoundAccountants& r, std::uint64_t m, std::uint64_t rounds);
RoundAccountants round_accountants(const RoundKind& kind, double failure_per_round, bool lower,
                                   const PldLimits& limits);

/// δ split between the mechanism and the dropout floors' failures: without dropout rounds all of
/// δ is the mechanism's; with R_d of them, δ/2 is, and β = δ/(2 R_d) a round (rounded down) is
/// each round's failure budget, R_d·β (rounded up) in all.
struct DeltaSplit {
  Rational mechanism;
  double failure_per_round = 0, failure = 0;
};
DeltaSplit split_delta(const Rational& delta, std::uint64_t dropout_rounds);

}  // namespace corbin
