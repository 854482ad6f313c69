#pragma once
// Exact laws of the released aggregate for one coordinate (m = 1), and the privacy they give.
//
// Every client sends c ± rα, so the sum of K outputs is K c + rα(2J − K), with J the number of
// "+" outputs. J is a sum of independent parts: one Bernoulli(q_i) per LDPQ client (together a
// Poisson-binomial law, each with its own q_i) and one {0, 1, 2}-valued count per CorBin pair,
// from the pair's exact joint law. Its law is the product of the parts' generating polynomials,
// kept as big-integer coefficients over one common denominator (no rational normalisation
// inside the O(n²) loop), and turned into rationals once at the end.
//
// Neighbouring aggregates (Eq. UCDP): `remove_one` takes client 1 out exactly as Eq. (1) does
// (same 1/n, the other clients' outputs unchanged: a partner keeps its output from the pair);
// `replace_one` changes client 1's weight. privacy_loss.hpp turns two such laws into δ(ε).

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/setting.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

/// A finite law on released sums: value -> probability (exact).
using SumLaw = std::map<Rational, Rational>;

/// The other clients: LDPQ clients and CorBin pairs (leader, follower).
struct Population {
  std::vector<Rational> ldpq;
  std::vector<std::pair<Rational, Rational>> pairs;
  std::size_t size() const { return ldpq.size() + 2 * pairs.size(); }
};

/// The law of a count J as a polynomial: P(J = j) = coef[j] / denom, exact big integers over one
/// common denominator (no rational normalisation inside the O(n²) products).
struct CountPolynomial {
  std::vector<BigInt> coef{BigInt(1)};
  BigInt denom{1};

  /// Multiplies by an independent count with P(count = t) = probs[t].
  void times(const std::vector<Rational>& probs);
  /// Multiplies by an independent Binomial(trials, plus) count (one pass over the expansion).
  void times_binomial(std::size_t trials, const Rational& plus);
  /// The released sums K c + level·(2(J + shift) − K) of `outputs` = K outputs, with their masses.
  SumLaw law(std::size_t outputs, std::size_t shift, const Rational& center,
             const Rational& level) const;
};

/// Law of the sum of every output, client 1 included (with its weight `target.weight`), or,
/// with `with_target` false, the sum without client 1's output (Eq. (1)). Weights are validated.
SumLaw sum_law(const SumGeometry& g, const Population& others, const TargetClient& target,
               bool with_target);

}  // namespace corbin
