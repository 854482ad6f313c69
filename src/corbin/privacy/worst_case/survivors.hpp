#pragma once
// Who survives a dropout round: the exact law of the population client 1 finds itself in, and a
// coarser law that dominates it where the populations are too many (the ladder, below).
//
// The round (fl/mechanism: plan_round): the roles are drawn, then every client, client 1
// included, drops independently with probability p; a client in an LDPQ position that survives
// quantizes alone, a pair with both members alive runs CorBinQ, with one alive leaves it alone
// (LDPQ, at its own input), with none sends nothing. So given who survived, the round is Theorem
// 3's mechanism for a population of lone clients (the others' LDPQ positions alive, and the lone
// members of broken pairs) and complete pairs, with client 1 alone (its LDPQ position, or its
// partner dropped) or paired; which of the others survived beyond these two counts is
// independent of the data (a population's worst case is over its inputs, whoever holds them).
// The server sees who survived, and the draw has the same law in both worlds (replace one), so a
// round is the labelled mixture of these populations with the weights below, and of client 1
// dropped (weight p, nothing of it released): run/round.hpp builds it. Labels with the same
// population are merged (a mixture of equal components is that component).
//
// From client 1's position, with A other LDPQ positions and B other pairs: X ~ Bin(A, 1 − p)
// positions survive; each pair is complete with probability (1 − p)², broken 2p(1 − p), gone p²,
// so S broken and C complete pairs are a trinomial; the lone others are X + S.
//
// Where the populations are too many to give each its accountant, a coarser law stands in that
// dominates the exact one (survivor_ladder): rungs of populations, each below the survivors
// except with a certified small probability. For budgets β_1 > β_2 > … the floors F_j
// (dropout_floor.hpp) have P(the others' survivors fall below F_j) <= u_j, and the events
// E_j = {at or above F_j} are nested (the floors fall with the budget). Fewer noise-adding
// clients can only be worse (dropout_floor.hpp: the larger sum is a post-processing of the
// smaller), so on E_j \ E_(j−1) the round is dominated by F_j's population, and below every rung
// by the population of client 1 with nobody else. Giving rung j the weight u_(j−1) − u_j (u_0 = 1)
// and the last, nobody, u_J moves mass only towards worse rungs (P(rung <= j) = 1 − u_j <=
// P(E_j)), so each hockey-stick divergence of the labelled mixture, in both directions, is at
// least the true one's: a dominating pair, composable as any other, with no share of δ. From a
// pair, the partner's survival is independent of the rest and public: each rung is itself the
// mixture of client 1 paired (1 − p) and alone (p) at the rung's floors.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/setting.hpp"

namespace corbin {

/// Most populations a dropout round's survivors may form (survivor_population_count) for its
/// mixture to be over them (run/round.hpp: survivors_exact), each one accountant (every client on
/// LDPQ: n clients give n); past it, the ladder's (survivor_ladder: at most 22 for each role of
/// client 1).
constexpr std::uint64_t kMaxSurvivorPopulations = 64;

struct SurvivorPopulation {
  PopulationCounts counts;  ///< the survivors, client 1 included
  TargetClient::Role role;  ///< ldpq: client 1 alone; leader: client 1 in a complete pair
  Rational weight;          ///< P(client 1 survives into this population), exact
};

/// The populations client 1 survives into from its `position` (ldpq, or a pair: leader or
/// follower) in the population `all` (client 1 included), merged, ordered by role then counts;
/// their weights sum to 1 − p. Raises invalid_argument: p outside (0, 1) (dropout), a position
/// the population lacks (role), more than `max_populations` of them (populations: see
/// survivor_population_count first).
std::vector<SurvivorPopulation> survivor_populations(const PopulationCounts& all, TargetClient::Role position,
                                                     const Rational& p, std::size_t max_populations);

/// b_k = C(n − 1, k)(1 − p)^k p^(n − 1 − k), k = 0 to n − 1: k of the other n − 1 clients
/// surviving, by the ratio of successive terms, enclosed; n >= 1, p in (0, 1).
std::vector<Interval> others_surviving(unsigned long n, const Rational& p);

/// The ladder's failure budgets β_j: from 15/16 down to 2^-64, densest near the body, where most
/// of the mass is. Consecutive rungs within 1/256 of the first's survivors (lone clients and
/// complete pairs) form one rung at the last's floors, so a large population uses few: its rungs'
/// accountants differ by less than the ladder's own looseness there.
inline constexpr double kLadderBudgets[] = {0x1.ep-1, 0x1.cp-1, 0x1.8p-1, 0x1.4p-1, 0x1p-1,  0x1.8p-2, 0x1p-2,
                                            0x1p-3,   0x1p-4,   0x1p-5,   0x1p-6,   0x1p-8,  0x1p-10,  0x1p-12,
                                            0x1p-15,  0x1p-18,  0x1p-22,  0x1p-26,  0x1p-32, 0x1p-40,  0x1p-64};

/// The ladder above for client 1 in `position` (ldpq, or a pair) of n clients with γ's LDPQ share:
/// populations (merged) whose weights sum to 1 − p, the law of survivor_populations moved towards
/// fewer survivors. Raises what dropout_floor raises, and invalid_argument: p outside (0, 1)
/// (dropout), a position the population lacks (role).
std::vector<SurvivorPopulation> survivor_ladder(unsigned long n, const Rational& gamma, TargetClient::Role position,
                                                const Rational& p);

/// The lower ladder, the mirror of the one above: rungs of the others' survivors at or above the
/// true ones except with a certified small probability, so that a mixture over them is dominated by
/// the round's (more noise-adding clients only add noise: the larger sum is a post-processing of
/// the smaller) and bounds its privacy from below. Of the others, X ~ Bin(lone, 1 − p) LDPQ clients
/// survive (positions, or members of pairs that count as two LDPQ clients) and S ~ Bin(pairs, 2p(1
/// − p)) pairs are broken; complete pairs add a sure "+" each, which the server can subtract (it
/// sees who survived), so they do not enter. For the budgets above, ceilings (x_j, s_j) with P(X >
/// x_j or S > s_j) <= u_j, nondecreasing, so the events {X <= x_j, S <= s_j} are nested; rung j
/// weighs u_(j−1) − u_j (u_0 = 1), the last (everybody) u_J: P(rung <= j) = 1 − u_j is at most the
/// event's probability, so the rung is stochastically above the truth, and a coupling that only
/// adds survivors, drawn without the data, carries the round's release to the ladder's. Consecutive
/// rungs within 1/256 of each other are one, at the larger.
struct SurvivorCeiling {
  std::uint64_t lone = 0;    ///< at most this many of the others survive alone (X)
  std::uint64_t broken = 0;  ///< at most this many pairs are broken (S)
  Rational weight;           ///< the rung's weight; they sum to 1
};
/// Raises invalid_argument(dropout) for p outside (0, 1).
std::vector<SurvivorCeiling> survivor_ceilings(std::uint64_t lone, std::uint64_t pairs, const Rational& p);

/// How many different populations client 1 survives into from the positions it may hold
/// (`ldpq`, `paired`: a pair's position) of `all`, both counted once where they share some:
/// the number of accountants the mixtures need. Without weights, so cheap at any size.
std::uint64_t survivor_population_count(const PopulationCounts& all, bool ldpq, bool paired);

/// Client 1 among n lone clients (every client alone, each dropping with probability p): the
/// populations it survives into (1 + the other survivors), the populations themselves up to
/// kMaxSurvivorPopulations clients, else the ladder's (survivor_ladder at γ = 1).
std::vector<SurvivorPopulation> lone_survivor_populations(unsigned long n, const Rational& p);

/// A dropout round as the labelled mixture over who survived (run/round.hpp says why that is the
/// round, under either relation): client 1 dropped with probability `dropped` (the same law in
/// both worlds: silent), else each of `parts` with its weight (the weights sum to 1 − dropped),
/// `of(part)` the accountant of its population for `uses` uses sharing the draw (upper bounds,
/// each family kept for the search of the adversary's choices given the draw: bounding()).
Accountant mixed_over_survivors(const Rational& dropped, const std::vector<SurvivorPopulation>& parts,
                                const std::function<Accountant(const SurvivorPopulation&)>& of,
                                std::uint64_t uses, const PldLimits& limits);

}  // namespace corbin
