#pragma once
// Remove one with dropout, an adversary told how many clients survived but not who: a round's
// pessimistic PLDs built from any mechanism's replace-one pair at fewer clients (the lone rooms
// with m >= 2 coordinates or past their exact family's limits, the Laplace with m >= 2: rooms
// whose pair over the round's coordinates is no one shift; noise_sum.hpp: counted_remove_pieces is the same argument on the
// noise rooms' pieces of one shift).
//
// The argument. Every client, client 1 included, drops independently with probability p; the
// server releases the survivors' sum of m coordinates. With q = 1 − p and
// b_k = C(n − 1, k)q^k p^(n−1−k), N = k survivors weigh a_k + c_k = q·b_(k−1) + p·b_k with
// client 1 and b_k without. Given N = k, the survivors with client 1 are client 1 and a uniform
// (k − 1)-set U of the others (weight a_k = q·b_(k−1)) or U and one more other j, uniform among the
// rest (c_k = p·b_k); without client 1, U and j (b_k). Told N and U as well (their law the same in
// both worlds), the pair is (a_k·P + c_k·M, b_k·M) with P the sum of client 1's output and U's,
// M the mixture over j of j's output and U's: both laws affine in M, so H_γ of the pair is convex
// in M and at most its worst j's. For one j, with R = dP/dM,
//     H_γ(a P + c M || b M) = a·H_γ'(P||M),  γ' = (γb − c)/a,  for γb > c (else a + c − γb),
//     H_γ(b M || a P + c M) = (b − γc)·H_γ''(M||P),  γ'' = γa/(b − γc),  for γc < b (else 0),
// and (P, M) is the pair of two datasets of k clients that differ in one client's inputs (x_1
// against x_j, U's the same): the mechanism's replace-one pair at k clients, whose pessimistic
// PLDs over the round's m coordinates (composed) dominate it at every γ', both ways. Its curves
// put in, the round's curve is bounded above at every γ: the sum over the labels k, with N = 0
// the empty sum (p·b_0 against b_0) and N = n only with client 1 (+∞). A replace-one pair at
// fewer clients dominates the pair at more (the extra clients' outputs, the same law in both
// datasets, added to both: a post-processing), so a label may take a smaller population's pair.
// The round's pessimistic PLDs are built under the bounds (pld/curve.hpp).
//
// It holds for inputs fixed before the draw, or chosen knowing only how many survived and the
// rounds before (the statement: run/round.hpp), not for inputs chosen knowing who survived (U's
// inputs must not depend on whether client 1 or j filled the k-th place).

#include <map>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"
#include "corbin/privacy/pld/pld.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// A pair of pessimistic PLDs: P against Q, and Q against P.
struct UpperPair {
  UpperPld forward, backward;
};

/// A label N = k, 1 <= k <= n − 1, of the count told: with client 1, a = q·b_(k−1) (client 1 and
/// k − 1 others survived) and c = p·b_k (k others, client 1 dropped); without it, b = b_k; `light`
/// where both weights, a + c and b, are under 10^−30 (its whole weight goes to +∞).
struct CountedLabel {
  unsigned long k;
  Interval a, c, b;
  bool light;
};
/// Every label 1 <= k <= n − 1, enclosed, from b = others_surviving(n, p) (survivors.hpp) for
/// n >= 2 and p in (0, 1), which its callers have checked.
std::vector<CountedLabel> counted_labels(const std::vector<Interval>& b, const Rational& p);

/// The populations k (1 <= k <= n − 1) whose replace-one pairs counted_remove_plds would use:
/// every label whose weight passes 10^−30, or, past kMaxCountedPopulations of them, that many
/// spread evenly in ln k from the smallest (each label then takes the largest at or below it).
/// n >= 2, p in (0, 1).
std::vector<unsigned long> counted_populations(unsigned long n, const Rational& p);
constexpr std::size_t kMaxCountedPopulations = 48;

/// The round's pessimistic PLDs, with client 1 against without (forward) and the other way round,
/// for n >= 2 clients with dropout p in (0, 1) (see above); `replaced` maps populations k to the
/// mechanism's replace-one pair at k clients over the round's coordinates, a label using the
/// largest population at or below it (none: the label's whole weight at +∞). Raises
/// invalid_argument naming dropout or n.
UpperPair counted_remove_plds(const std::map<unsigned long, UpperPair>& replaced, unsigned long n, const Rational& p,
                              const PldLimits& limits);

/// The same as an accountant of upper ends alone, of `uses` uses together (the round's m
/// coordinates sharing the draw), under remove one: to meet with another pair of the round
/// (Accountant::tighter).
Accountant counted_remove_accountant(const std::map<unsigned long, UpperPair>& replaced, unsigned long n,
                                     const Rational& p, std::uint64_t uses, const PldLimits& limits);

}  // namespace corbin
