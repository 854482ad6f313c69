#pragma once
// A lower bound on a dropout round that the mechanism as run attains: the mixture over who drops.
//
// The round (fl/mechanism: plan_round): the roles are drawn, then every client, client 1
// included, drops independently with probability p; a dropped client sends nothing, a pair with
// one survivor leaves it quantizing alone (LDPQ, at its own input), a pair with both runs
// CorBinQ. Fix one configuration of the full population (aggregate_law.hpp: client 1's
// candidate with its partner, j of the other LDPQ clients at c + r and the rest at c − r, every
// other pair at (c, c)); that is a pair of neighbouring datasets, and the laws below are those
// of the release under it, averaged exactly over every pattern of dropouts.
//
// What the release is taken to show. Under replace one the server sees who survived (a client's
// message arrives or not) and the sum of their outputs; the laws below keep of that client 1's
// and its partner's survival, the number N of outputs and the count J of "+" (with N known, the
// sum gives J): a function of the release, so a lower bound on their privacy loss is one on the
// release's (data processing), and with every other client interchangeable in its group it is
// the release's own law up to which of them survived. Past kMaxCountedClients N is dropped
// (D = 2J − N is kept), which only coarsens. Under remove one, where client 1's presence is the
// secret, only the sum is taken: at c = 0 the count D, otherwise the pair (N, J) with the
// values N·c + rα(2J − N) that coincide (or, for an enclosed α, whose enclosures meet) merged
// into one outcome, again a coarsening.
//
// This replaces the dropout rounds' lower bound of 0; the upper bound stays the floors'
// (dropout_floor.hpp), which covers every configuration at once.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// Largest population whose mixture is computed: O(n²) per configuration where the count D
/// is enough, O(n³) where (N, J) is kept (replace one up to kMaxCountedClients, remove one off
/// centre, and no further there). Past them a dropout round has no lower bound (0).
constexpr unsigned long kMaxMixtureClients = 1024;
constexpr unsigned long kMaxCountedClients = 96;
/// Configurations kept for a round's lower bound (each composed on its own later).
constexpr std::size_t kMaxMixtureConfigurations = 4;
/// Whether the population is within those limits.
bool mixture_computable(const AccountSetting& population);

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

/// Largest population whose dropout round under remove one is accounted by its whole family
/// (dropout_family): 2(⌈L/2⌉ + 1) configurations, each O(n²) (n = 1024 took 4 s on 2 cores).
constexpr unsigned long kMaxFamilyClients = 1024;
/// The same under replace one, where each configuration's law has O(n²) blocks of O(n) outcomes.
constexpr unsigned long kMaxRevealedFamilyClients = 64;

/// Whether a round of `population` with dropout, m coordinates a round, is accounted at both ends
/// by the family of its exact mixtures (dropout_family), so that its upper end needs no floors
/// (dropout_floor.hpp) and no share of δ: every client on LDPQ (no pairs), m = 1, and under
/// replace one at most kMaxRevealedFamilyClients clients, under remove one c = 0 and at most
/// kMaxFamilyClients.
///
/// Replace one. The server sees who survived and their sum. Which clients survived is drawn
/// independently of the data and is the same in both worlds; given it, the sum depends on the
/// inputs only through client 1's survival b and the numbers K+ and K− of surviving others at
/// c + r and at c − r (the adversary knows whom it put where; the rest of who survived is then
/// independent of everything), and N = b + K+ + K− outputs make the sum a function of the count J
/// of "+". So the release's law is the labelled mixture over (b, K+, K−), exact weights the same in
/// both worlds, of the law of J: an exact law, not the coarsening (status, N, J) that
/// dropout_mixture keeps. Each other client's part (whether it survived, and its output) is
/// affine in its q, so Lemma 1 puts every client at q− or q+ as under remove one below, and the
/// mirror (J ↦ N − J, K+ ↔ K−) keeps j <= ⌈L/2⌉.
///
/// Remove one. Under remove one the release is the survivors' sum; at c = 0 it is rα·D,
/// D = Σ over the survivors of ±1. Each client's part of D is independent of the others' and its
/// law, (1 − p)q at +1, (1 − p)(1 − q) at −1 and p at 0, is affine in q ∈ [q−, q+]; client 1's is
/// the same in the first world and absent in the second. By Lemma 1 (neighbours.hpp: H_γ is
/// jointly convex, the law of D linear in each part's law) the worst case over every input, for
/// every γ = e^ε and in both orders, has every client at q− or q+: client 1's q and the number j
/// of the other L clients at q+ (they are interchangeable). Reflecting D ↦ −D maps (q+, j) to
/// (q−, L − j) in both worlds, and a bijection of the outputs keeps the privacy loss distribution,
/// so j <= ⌈L/2⌉ for both candidates covers them all. Each round draws who drops anew, so the
/// rounds are independent uses of this family, the adversary choosing each (Accountant::
/// from_family). Excluded: pairs (a pair with one survivor quantizes alone, so Lemma 3's sure "+"
/// does not carry over); under remove one c ≠ 0 (the sum's values then tell the number of
/// survivors apart, and where enclosures meet they are merged, a coarsening that bounds only from
/// below); m >= 2 (the coordinates share who survived, so a round's law is a mixture of products,
/// not one coordinate's law composed).
bool dropout_family_exact(const AccountSetting& population, std::uint64_t m);

/// That family for client 1's role in `population` (every configuration, each attained, with its
/// words); raises invalid_argument naming the parameter where dropout_family_exact(population, 1)
/// does not hold (gamma, c, n) or p is outside (0, 1) (dropout).
std::vector<AttainedLaws> dropout_family(const AccountSetting& population, const Rational& p);

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

}  // namespace corbin
