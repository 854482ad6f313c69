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
// upper bound is the labelled mixture over who survived (dropout_survivors_mixture, below;
// worst_case/survivors.hpp): over the populations themselves where they are few
// (survivors_exact), else over the ladder of populations that dominates their law, with no share
// of δ either way. The lower bound is the mechanism as run (dropout_mixture.hpp): a round's m
// coordinates share every client's draw, so the m-fold composition of one coordinate's mixture is
// not the round's law (it redraws who drops for each coordinate; it gave lower ends above the
// exact ε). The round's lower bound is one coordinate's (a post-processing of the round's release)
// and, where computed (replace one, every client on LDPQ), the round whole (dropout_round_lowers).

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

// A dropout round is the labelled mixture over who survived. The draw is public randomness, so
// the adversary may choose every input knowing it: given the survivors, the round is Theorem 3's
// mechanism for the population they form (its worst case over their inputs), and which clients
// form it beyond its counts is independent of the data. The label (client 1's own coin, who of the
// others survived, client 1's role) has the same law in both worlds and is revealed, so the round
// is that labelled mixture exactly (pld.hpp: mixture); its m coordinates share the label, so each
// population is composed m times before the mixture. Under replace one the server sees who
// survived anyway. Under remove one it sees only the sum, and the label is given to it (a release
// it can compute from is only less private): client 1's coin is drawn in both worlds, and in the
// second nothing of client 1 is sent whatever it says. Given the label, client 1 dropped is the
// same law in both worlds (a partner left alone quantizes on LDPQ, the law Eq. (1) keeps for it
// when client 1 is removed), and client 1 surviving is the survivors' population with client 1
// against it without client 1: the remove-one pair of that population. So one rule serves both
// relations, with no share of δ. (Before, a remove-one round took the survivors guaranteed except
// with a failure probability charged to δ: at n = 4, γ = 1, e^ε = 2, c = 3, dropout 1/2, δ(ε =
// 1/2) was at most 0.667; the mixture gives 0.193067, which an independent brute force of this
// adversary finds exact. An adversary who fixes the inputs before the draw and sees only the sum
// gets 0.0677, the lower end.) The noise rooms' remove-one dropout rounds, and the lone rooms'
// with m >= 2 coordinates or past their exact family's limits, meet this pair with one told only how many survived
// (worst_case/noise_sum.hpp, worst_case/counted_remove.hpp), whose proof needs the inputs fixed
// before the draw or chosen knowing only how many survived: their upper end covers that adversary
// (the statement's), not one choosing inputs knowing who survived.
/// Whether that mixture is over the survivors' populations themselves, at most
/// kMaxSurvivorPopulations of them counted over client 1's positions; else over the ladder's.
bool survivors_exact(const RoundKind& kind);
/// The probability that the server's draw puts client 1 alone (L/n), in [0, 1].
Rational alone_probability(const AccountSetting& setting);

/// One round of a (checked) kind: `coordinate`, one coordinate of it (the mixture over client 1's
/// role); `round`, all m coordinates (the role drawn once for all of them); `any_role`, one
/// coordinate whatever the role (the either of the roles: basic composition's use); `lower`: with
/// lower bounds.
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
RoundAccountants round_accountants(const RoundKind& kind, bool lower, const PldLimits& limits);

/// Raises invalid_argument(delta) for δ outside (0, 1): every run accountant's query at δ.
void check_delta(const Rational& delta);

}  // namespace corbin
