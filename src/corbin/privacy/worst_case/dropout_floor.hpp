#pragma once
// The survivors a dropout round guarantees except with a small probability: the rungs of the
// ladder that bounds a large dropout round from above (survivors.hpp: survivor_ladder).
//
// Each round every client drops independently with probability p (fl/mechanism: plan_round). A
// client in an LDPQ position that survives quantizes alone; a drawn pair with both members alive
// runs CorBinQ, with one alive leaves it alone (LDPQ), with none sends nothing. Who survived is
// public (run/round.hpp), and it is drawn independently of the data, so a round's privacy is that
// of the population it happened to leave. Fewer noise-adding clients can only be worse: the sum with
// an extra independent client is the smaller population's sum plus a term whose law does not
// depend on client 1 (post-processing). So a round whose survivors include at least
//     x LDPQ clients in LDPQ positions, s lone members of broken pairs, c complete pairs
// among the others is covered by the population of exactly those, and a round with fewer has
// probability at most
//     failure = P(Bin(L, 1 − p) < x) + P(Bin(P, 2p(1 − p)) < s) + P(Bin(P, (1 − p)²) < c),
// where L and P count the others' LDPQ positions and drawn pairs (client 1 and one slot beside
// it, its partner's or one LDPQ position, are left out of both, which only lowers the floors).
//
// Client 1 itself is alone (in an LDPQ position, or its partner dropped), paired, or dropped (it
// sends nothing); the ladder labels each.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "corbin/number/rational.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"

namespace corbin {

struct DropoutFloor {
  std::uint64_t ldpq = 0, broken = 0, complete = 0;  ///< x, s, c among the others
  double failure = 0;  ///< certified upper bound on P(fewer survivors than the floors), <= the budget
  PopulationCounts alone;                 ///< client 1 alone: 1 + x + s LDPQ clients, c pairs
  std::optional<PopulationCounts> paired;  ///< client 1 paired: x + s, c + 1; none when it never is
};

/// The largest floors (x, then s, then c, each given an equal share of `budget` where it has
/// trials) whose failure probability is at most `budget`, for n clients, γ's LDPQ share (0 for
/// CorBin-FL) and dropout p. Raises invalid_argument: n < 2 or past kMaxAccountClients (n), γ
/// outside [0, 1] (gamma), p outside (0, 1) (dropout), budget outside (0, 1) (failure budget).
DropoutFloor dropout_floor(unsigned long n, const Rational& gamma, const Rational& p, double budget);
/// The floors of each of `budgets` (each binomial's law computed once for all of them), for client
/// 1 in `position` (ldpq, or a pair: the others are then all the LDPQ positions and the other
/// pairs, one more than above) or, where none is given, either.
std::vector<DropoutFloor> dropout_floors(unsigned long n, const Rational& gamma, const Rational& p,
                                         const std::vector<double>& budgets,
                                         std::optional<TargetClient::Role> position = std::nullopt);

/// The others beside client 1's `position` in `all` (client 1 included): every LDPQ position but
/// its own and every pair but its own; where no position is given, one of each left out, which
/// serves either position (and only lowers a floor). The one place that counts the others by
/// position (the ladder of ceilings takes AggregateFamily's count, which at d = 0 counts each other
/// pair as two LDPQ clients, each dropping on its own).
PopulationCounts others_beside(const PopulationCounts& all, std::optional<TargetClient::Role> position);

/// For each of `shares`, the largest x with a certified P(Binomial(trials, q) < x) <= the share,
/// and that bound, for q exact in (0, 1): the law's window computed once, at a precision that keeps
/// q's enclosure inside (0, 1) (a dropout probability of 10^-300 is a probability there).
std::vector<std::pair<std::uint64_t, double>> survivor_quantiles(std::uint64_t trials, const Rational& q,
                                                                 const std::vector<double>& shares);

}  // namespace corbin
