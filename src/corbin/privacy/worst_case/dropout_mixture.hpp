#pragma once
// A lower bound on a dropout round that the mechanism as run attains: the mixture over who drops.
//
// The round (fl/mechanism: plan_round): the roles are drawn, then every client, client 1 included,
// drops independently with probability p; a dropped client sends nothing, a pair with one survivor
// leaves it quantizing alone (LDPQ, at its own input), a pair with both runs CorBinQ. Fix one
// configuration of the full population (aggregate_law.hpp: client 1's candidate with its partner, j
// of the other LDPQ clients at c + r and the rest at c − r, every other pair at (c, c)); that is a
// pair of neighbouring datasets, and the laws below are those of the release under it, averaged
// exactly over every pattern of dropouts.
//
// What the release is taken to show. Under replace one the server sees who survived (a client's
// message arrives or not) and the sum of their outputs; the laws below keep of that client 1's and
// its partner's survival, the number N of outputs and the count J of "+" (with N known, the sum
// gives J): a function of the release, so a lower bound on their privacy loss is one on the
// release's (data processing), and with every other client interchangeable in its group it is the
// release's own law up to which of them survived. Past kMaxCountedClients (kMaxCountedLoneClients
// with no other pairs) N is dropped (D = 2J − N is kept), which only coarsens. With every client on
// LDPQ (client 1 too) and at most kMaxRevealedClients clients the law is the release's own: given
// who survived, the sum depends on the inputs only through client 1's survival b and the numbers K+
// and K− of surviving others at c + r and at c − r (the rest of who survived is independent of
// everything), so the law is the labelled mixture over (b, K+, K−), exact weights, of the count J;
// (status, N, J) merges the labels with equal N. Under remove one, where client 1's presence is the
// secret, only the sum is taken: at c = 0 the count D, otherwise the pair (N, J) with the values
// N·c + rα(2J − N) that coincide (or, for an enclosed α, whose enclosures meet) merged into one
// outcome, again a coarsening.
//
// This replaces the dropout rounds' lower bound of 0; the upper bound is the mixture over who
// survived (run/round.hpp), which covers every configuration at once. The laws here are of inputs fixed before the round's
// dropout draw, one adversary among those the bounds cover, so they bound from below only: the draw
// comes from public randomness (fl/mechanism.hpp), and an adversary that chooses the other clients'
// inputs after it can do worse than any one of these configurations (at n = 4, e^ε_p = 3, dropout
// 1/10, e^ε = 1.25: δ 0.18713 against the best configuration's 0.18377).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/worst_case/lone_clients.hpp"

namespace corbin {

/// Largest population whose release under replace one, every client on LDPQ, is kept exactly
/// (O(n²) labels of O(n) counts each).
constexpr unsigned long kMaxRevealedClients = 64;
/// Largest population whose mixture is computed: O(n²) per configuration where the count D is
/// enough, O(n³) where (N, J) is kept (replace one up to kMaxCountedClients, or
/// kMaxCountedLoneClients with no other pairs; remove one off centre, and no further there). Past
/// them a replace-one round is bounded below by the ladder (dropout_ladder_lowers, below), a
/// remove-one round at c = 0 by the sum's law on windows (kMaxSumClients), and a remove-one round
/// off centre not at all (0).
constexpr unsigned long kMaxMixtureClients = 1024;
constexpr unsigned long kMaxCountedClients = 96;
/// Remove one at c = 0, where the release is the count D of "+" less "−" among the survivors:
/// past kMaxMixtureClients each group of alike others is a sum of independent steps of −1, 0 or
/// +1, whose law is taken from two binomial windows (one kind of step, then a second among the
/// rest) in O(n) points rather than one client at a time, up to this many clients (8.0 s for a
/// round of 10^5 clients on 2 cores, e^ε = 3, dropout 1/10).
constexpr unsigned long kMaxSumClients = 100'000;
/// Under replace one with no other pairs, (N, J) is kept up to this many clients: past 96 the
/// count D alone gave ε 0.506 where (N, J) gives 0.7125, the exact ε with the inputs fixed before
/// the draw (n = 97, e^ε = 3, dropout 1/2, δ = 10^-5), in 1.7 s; 5.6 s at 256. With pairs the
/// same costs five times as much (75 s against 14 s at n = 256, γ = 1/2) for a gain under 1 %.
constexpr unsigned long kMaxCountedLoneClients = 256;
/// Configurations kept for a round's lower bound (each composed on its own later).
constexpr std::size_t kMaxMixtureConfigurations = 6;
/// Whether the population is within those limits.
bool mixture_computable(const AccountSetting& population);
/// Whether its mixture under replace one keeps the number of survivors beside the count of "+"
/// (within kMaxCountedClients, or kMaxCountedLoneClients with no other pairs): the release's own
/// law up to which of the interchangeable others survived, which the ladder's cannot beat.
bool mixture_keeps_survivors(const AccountSetting& population);

/// The neighbouring laws of the survivors' sum under configuration `c` of `family` (its setting
/// the full population, without `counts`), every client dropping with probability p in (0, 1),
/// on one common index of the release's values. Raises invalid_argument(dropout) for p outside
/// (0, 1), invalid_argument(n) past the limits above, and for a candidate that is a one-sided
/// limit (no input attains it).
NeighbouringPmfs dropout_mixture(const AggregateFamily& family, const Configuration& c,
                                 const Rational& p);

/// The configurations attaining the largest lower bounds of one round of `population` (client
/// 1 in its `role`) with dropout p, at most kMaxMixtureConfigurations, each with its laws and
/// its words (`dropout` says who drops); none past the limits above.
std::vector<AttainedLaws> dropout_mixtures(const AccountSetting& population, const Rational& p,
                                           const PldLimits& limits);

/// Largest population whose round of m >= 2 coordinates is computed whole: n components per
/// configuration, each composed m times in both directions (about 4·2n·log2(m) convolutions: at
/// n = 50, m = 10^5 it took 73 s before the counts of negligible weight were left out and the
/// mirror candidates skipped; n = 32, m = 10^3 takes 11 s on 2 cores).
constexpr unsigned long kMaxRoundMixtureClients = 32;

/// A round of m >= 2 coordinates as run, where the coordinates share every client's draw (who
/// drops out drops out of all of them): under replace one, with every client on LDPQ, the server
/// sees who survived, and given that the coordinates are independent. With every other client at
/// one input (c − r, or c + r) the survivors are interchangeable, so the release comes down to
/// client 1's survival, the number k of others surviving and each coordinate's "+" count: a
/// labelled mixture over (survival, k), with exact weights, of each component's pair of laws
/// composed m times (a coarsening of the release, so a lower bound that the mechanism attains).
/// For each attained candidate of client 1 and each of the two inputs of the others; none where
/// the conditions above do not hold (pairs, remove one, m < 2, past kMaxRoundMixtureClients).
std::vector<AttainedPlds> dropout_round_lowers(const AccountSetting& population, const Rational& p,
                                               std::uint64_t m, const PldLimits& limits);

/// A round of m >= 1 coordinates as run under replace one, bounded below where the mixtures above
/// are not computed (past their limits, or m >= 2 with pairs or past kMaxRoundMixtureClients):
/// the ladder of survivor ceilings (survivors.hpp: survivor_ceilings), each rung the population
/// of its ceilings with every other LDPQ client at one input (c − r, or c + r) and every other pair
/// at (c, c), labelled by the rung and by who of client 1 and its partner survived, each label's
/// coordinates composed m times, client 1 dropped silent. The rungs hold at least the true
/// survivors (a coupling drawn without the data adds the rest, each adding its fresh output), so
/// this is a post-processing of the release under the same inputs, fixed before the draw: a lower
/// bound the mechanism attains. Of every attained candidate (the same laws, or their mirror image,
/// once) and each input of the others, the kMaxMixtureConfigurations largest by the mass at +∞, by
/// δ at ε_p / 2 and by δ at 0 (two of each in turn); none under remove one or with the survivors
/// given.
std::vector<AttainedPlds> dropout_ladder_lowers(const AccountSetting& population, const Rational& p,
                                                std::uint64_t m, const PldLimits& limits);
/// The same for several numbers of coordinates at once, one list per entry of `uses`: the
/// configurations are scored and chosen once, at one use (empty lists where none applies).
std::vector<std::vector<AttainedPlds>> dropout_ladder_lowers(const AccountSetting& population, const Rational& p,
                                                             const std::vector<std::uint64_t>& uses,
                                                             const PldLimits& limits);

/// What a round as run with dropout p releases, in a configuration's words (its `dropout`): who
/// survived and their sum under replace one, the sum alone under remove one.
std::string dropout_said(const Rational& p, Neighbour relation);

/// A dropout round of n lone clients over the extremes' laws (lone_clients.hpp), as run, with
/// every input fixed before the draw: client 1 at one attained extreme (against another, or under
/// remove one against its absence), j of the others at one attained extreme and the rest at a
/// lower one (every j for up to 9 others, else nine spread evenly; under replace one past
/// kMaxRevealedClients clients all at one), so that each group's survivors are interchangeable.
/// Under replace one the server sees who survived, and the laws are the labelled mixture over
/// client 1's survival and how many of each group survived (exact binomial weights, enclosed) of
/// the sums; under remove one the release is the sum alone (the dropped send nothing: 0), one law
/// per world. Of every such configuration, the
/// kMaxMixtureConfigurations best by the mass at +∞, by δ at ε = 1/2 and by δ at 0, in turn; none
/// past kMaxMixtureClients or where lattice_laws has no lattice. Raises invalid_argument(dropout)
/// for p outside (0, 1).
std::vector<AttainedLaws> lone_dropout_mixtures(const std::vector<ExtremeLaw>& extremes, unsigned long n,
                                                Neighbour relation, const Rational& p, const PldLimits& limits);

}  // namespace corbin
