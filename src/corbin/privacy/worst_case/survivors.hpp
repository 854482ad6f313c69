#pragma once
// Who survives a dropout round, exactly: the law of the population client 1 finds itself in.
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

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corbin/number/rational.hpp"
#include "corbin/privacy/setting.hpp"

namespace corbin {

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

/// How many different populations client 1 survives into from the positions it may hold
/// (`ldpq`, `paired`: a pair's position) of `all`, both counted once where they share some:
/// the number of accountants the mixtures need. Without weights, so cheap at any size.
std::uint64_t survivor_population_count(const PopulationCounts& all, bool ldpq, bool paired);

}  // namespace corbin
