#pragma once
// What the noise baselines' rounds share (gaussian_pld, laplace_sum): n clients each add
// independent noise to a clipped input in [c − r, c + r] and the sum is released, so replacing
// client 1's input shifts the sum's law by at most 2r whatever the others' inputs, the two orders
// are mirror images (the noise is symmetric), and the largest shift is the worst (a log-concave
// location family). The accountant of one use from the shift's two PLDs, attained at c ± r.
//
// Dropout (each client, client 1 included, drops independently with probability p and sends
// nothing; who survived is public, run/round.hpp): given the survivors, c of them with client 1,
// the round is the shift pair of c clients' noise whatever the others' inputs, so inputs chosen
// knowing the draw and inputs fixed before it give the same round: the labelled mixture over the
// number of survivors, client 1 dropped one law in both worlds, is the round as run. Above, the
// populations themselves up to kMaxSurvivorPopulations clients, else the ladder's (fewer survivors:
// less noise, survivors.hpp); below, the same populations, else the ladder of ceilings' (more).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "corbin/privacy/pld/continuous.hpp"
#include "corbin/privacy/run/accountant.hpp"

namespace corbin {

/// `noise` names each client's noise in the attaining configuration's words ("N(0, sigma^2)").
Accountant shift_pair_accountant(const UpperPld& upper, const LowerPld& lower, unsigned long n,
                                 const std::string& noise, const PldLimits& limits);

/// The extreme of [c − r, c + r] farther from 0 (c + r at c = 0) and its words ("c + r"): client
/// 1's worst input under remove one, for either noise (laplace_sum.hpp).
struct Extreme {
  Rational input;
  std::string words;
};
Extreme far_extreme(const Rational& center, const Rational& radius);

/// Remove one: the pair of n clients' noise about client 1's input against n − 1 clients' noise,
/// with client 1 against without (`forward`) and the other way round (`backward`), each order's
/// pessimistic and optimistic PLDs (gaussian_pld, laplace_sum: not mirror images).
struct RemovePlds {
  ContinuousPlds forward, backward;
};
/// The same pair's outputs cut into pieces, each order on its own grid.
struct RemovePieces {
  PiecesOnGrid forward, backward;
};
RemovePlds remove_plds(const RemovePieces& pieces);
/// Both orders' pieces, `order(forward)` each, on a thread of its own (or both on this one).
RemovePieces both_orders(const std::function<PiecesOnGrid(bool forward)>& order, const PldLimits& limits);
/// One use of the remove pair of n >= 2 clients, attained with client 1 at `input` (in words)
/// and removed.
Accountant remove_pair_accountant(const RemovePlds& plds, unsigned long n, const std::string& input,
                                  const std::string& noise, const PldLimits& limits);

/// The sum of k >= 1 clients' noise, centred, in the unit a binned lower end works in.
struct NoiseLaw {
  /// Its tail at z (continuous.hpp's Tail: P(X > z) at or above 0, P(X <= z) below).
  std::function<Tail(unsigned long k, const Interval& z)> tail;
  /// How far from its centre its mass reaches (beyond, under about 10^−30), in the same unit.
  std::function<double(unsigned long k)> reach;
  /// What one tail of it costs, in normal tails (the binned lower end's work is capped).
  std::function<double(unsigned long k)> cost;
};
/// One post-processing of a round's release the binned lower end looks through: an input times
/// `scale` is in the unit of `law`, and `summed` coordinates are added (1: one coordinate).
struct BinnedView {
  Interval scale;
  std::uint64_t summed;
  NoiseLaw law;
};

/// Remove one with dropout (each client, client 1 included, drops with probability p and sends
/// nothing; the release is the survivors' sum, 0 if none survived), client 1 at the extreme
/// farther from 0 (the worst, for either noise: laplace_sum.hpp). Above, an adversary told more
/// than the sum (a release the sum is computed from, so only less private; the draw has one law
/// in both worlds). With one coordinate, told who of the others survived: given k of them,
/// client 1 is in the sum with probability 1 − p, so the pair is (P', Q) with
/// P' = (1 − p)·P + p·Q, (P, Q) the remove pair at k + 1 clients (`pieces(k + 1)`, called on
/// worker threads, the caller's precision held); no other survivor: client 1's noisy input
/// (1 − p) or 0 (p) against 0, +∞ one way and ln(1/p) the other. Client 1 farthest from 0 is
/// still the worst: with w = 1 − p, H_γ(wP + (1 − w)Q||Q) = w·H_((γ − 1 + w)/w)(P||Q) for
/// γ > 1 − w (else 1 − γ), and H_γ(Q||wP + (1 − w)Q) = (1 − γ(1 − w))·H_(γw/(1 − γ(1 − w)))(Q||P)
/// for γ(1 − w) < 1 (else 0), each rising with the pair's. With m >= 2 coordinates client
/// 1's coin is shared by all m, so it is told too: client 1 dropped is silent, client 1 surviving
/// with k others is the pair at k + 1 clients m times, or alone its noisy inputs against 0 (+∞).
/// Either way the mixture over the survivors (survivors.hpp: the populations up to
/// kMaxSurvivorPopulations clients, past that the ladder's, fewer survivors being worse: the pair
/// at k + 1 is the pair at k with the same noise added to both laws). Below: the sum alone, as
/// run, with every other client at one input v (c − r, c + r, or 0 where it is in range), seen
/// through 1 024 bins of its value in each of `views`: the two mixtures over the number of
/// survivors, each bin's masses enclosed, the atom at 0 apart. The binomial's terms under
/// 10^−30 are left out of both laws, their mass added to the enclosures' upper ends (so a lower
/// end still bounds the exact binned pair's); a view whose work would pass its cap is skipped.
/// The accountant's lower end is the best of them. Where `shift` is given, the upper end is also
/// bounded by an adversary told only how many survived (counted_remove_pieces), the round's
/// pair the meet of the two (pld/meet.hpp): the others' survival told is tight where dropout is
/// rare, but +∞ wherever (1 − p)·P(no other survivor) passes δ; the count told has +∞ only for
/// everyone surviving ((1 − p)^n) but shifts of 2r, so it is tight where few take part (client
/// sampling); their meet is below both at every e^ε, over many rounds well below either (n = 40,
/// sampling 1/4, 20 rounds: ∞ and 1.785 against 0.788). Raises invalid_argument naming dropout, n, m
/// or radius, or what pieces raises.
Accountant noise_remove_dropout_accountant(const std::function<RemovePieces(unsigned long)>& pieces,
                                           const std::function<PiecesOnGrid(unsigned long)>& shift,
                                           const std::vector<BinnedView>& views, const Rational& center,
                                           const Rational& radius, unsigned long n, const Rational& p,
                                           std::uint64_t m, const std::string& noise, const PldLimits& limits);

/// Remove one with dropout, an adversary told how many clients survived but not who (a release
/// the sum is computed from): both orders' pieces, forward with client 1 against without.
/// With q = 1 − p and b_k = C(n − 1, k)q^k p^(n−1−k), N survivors have weight
/// q·b_(k−1) + p·b_k with client 1 and b_k without. Given N = k, the survivors with client 1
/// are client 1 and a uniform (k − 1)-set U of the others (weight q·b_(k−1)) or U and one more
/// other j, uniform among the rest (p·b_k); without client 1, U and j (b_k). Told U as well
/// (its law given k the same in both worlds), the pair is (q·b_(k−1)·P + p·b_k·M, b_k·M)
/// convolved with U's sum (a post-processing of both), P client 1's noisy input and M the mixture
/// over j of j's: jointly convex in the mixture over j, so at most its worst j, a shift pair of
/// k clients' noise whose shift |x_1 − x_j| <= 2r (the largest, the worst: the header); its
/// loss ln(p(1 + (k/(n − k))e^ℓ)) rises with the shift pair's ℓ (continuous.hpp:
/// weighted_mixture). N = 0: the empty sum, p·b_0 against b_0 (loss ln p); N = n only with
/// client 1 (+∞). It holds for inputs fixed before the draw, or chosen knowing only how many
/// survived and the rounds before (the statement: run/round.hpp), not for inputs chosen knowing
/// who survived (U's inputs must not depend on whether client 1 or j filled the k-th place: a
/// count-dependent input c_k for k others makes the given-N shift 2kr); with m
/// coordinates too where `shift(k)` is the round's m coordinates together (the Gaussian's: one
/// shift of 2r√m). `shift(k)` cuts the shift pair of k clients' noise at the largest shift,
/// called on worker threads; labels whose weights are under 10^−30 go to +∞ whole. Raises
/// invalid_argument naming dropout or n, or what shift raises.
RemovePieces counted_remove_pieces(const std::function<PiecesOnGrid(unsigned long)>& shift, unsigned long n,
                                   const Rational& p, const PldLimits& limits);

/// One dropout round of n >= 2 clients with dropout p in (0, 1) (see above) and m >= 1
/// coordinates sharing the draw (who drops out drops out of all of them): the labelled mixture
/// over who survived of the m coordinates composed, both ends, the whole round one use.
/// `plds(c)` is the shift pair's PLDs for c clients' noise. Raises invalid_argument(dropout)
/// outside (0, 1), invalid_argument(m) for 0, and what plds raises.
Accountant noise_dropout_accountant(const std::function<ContinuousPlds(unsigned long)>& plds, unsigned long n,
                                    const Rational& p, std::uint64_t m, const std::string& noise,
                                    const PldLimits& limits);

}  // namespace corbin
