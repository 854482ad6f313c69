#pragma once
// Rényi bounds for a family of pairs composed adaptively: the second certified upper bound of the
// accountant, beside the dominating pair's (envelope.hpp).
//
// Why a second one. The dominating pair of a family is exact for one use but loose for long
// compositions when the members differ in shape: the adversary must fix each coordinate's member
// before its output, while the dominating pair behaves as if it could pick the member after. For
// k uses, ε grows as k times the largest mean privacy loss of a member (its KL divergence), and
// the dominating pair's mean loss can exceed every member's (client 1 beside one other client,
// e^ε = 3: 0.412 against 0.358 per use). Moments do not have this gap: for every order λ > 1 and
// every member, E_P[(P/Q)^(λ−1)] <= S_λ (the largest over the family) implies, for any adaptive
// sequence of k members, E[(P/Q)^(λ−1)] <= S_λ^k for the composition (condition on the past,
// one use at a time), i.e. Rényi divergence k ln(S_λ)/(λ − 1) (Mironov 2017). The conversion to
// (ε, δ) is Canonne, Kamath and Steinke 2020 (Prop. 12; Balle et al. 2020, Thm. 21):
//     δ(ε) <= exp(ln M − (λ−1) ε + λ ln(1 − 1/λ) − ln(λ − 1)),   M = S_λ^k,
//     ε(δ) <= [ln M + λ ln(1 − 1/λ) − ln(λ − 1) − ln δ] / (λ − 1),
// the smallest over the orders kept. Each member's moment is taken on its pessimistic grid PLD
// (splitting an atom is anti-post-processing, so it only raises Rényi divergences), with the mass
// a window leaves out placed at the largest loss any atom can have (client 1's own pair bounds
// it, by data processing); where that loss is unbounded the moment is +∞ and this bound says
// nothing.

#include <cstdint>
#include <vector>

#include "corbin/number/rational.hpp"

namespace corbin {

/// The orders λ − 1 the moments are kept at: 2^(−30) to 2^10, one per octave.
const std::vector<double>& moment_orders();

/// Per order, an upper bound on ln E_P[(P/Q)^(λ−1)] (+∞ where unknown or unbounded).
using LogMoments = std::vector<double>;

/// +∞ at every order: no moment bound.
LogMoments unbounded_moments();
/// ln of per-order moment bounds S (S >= 1), rounded up.
LogMoments log_of(const std::vector<double>& moments);
/// The moments of a composition: a + b, and k·a (rounded up).
LogMoments add(const LogMoments& a, const LogMoments& b);
LogMoments times(const LogMoments& a, std::uint64_t k);
/// The moments of a labelled mixture (pld.hpp: mixture), w·a + (1 − w)·b inside the logarithm:
/// the label has the same law in both worlds, so E[(P/Q)^(λ−1)] mixes with the weights. w in
/// [0, 1]; rounded up.
LogMoments mixture(const LogMoments& a, const LogMoments& b, const Rational& w);

/// The smallest ε(δ) the orders give (+∞ if none), δ in (0, 1); rounded up.
double eps_from_moments(const LogMoments& m, const Rational& delta);
/// The smallest δ(ε) they give (1 if none), ε >= 0; rounded up.
double delta_from_moments(const LogMoments& m, const Rational& eps);

}  // namespace corbin
