#pragma once
// B1: is a baseline of the authors' repository LDPQ under another name? For PBM (m = 1, 2), RQM
// (m = 2, 3) and SignSGD, each configured as the authors configure it at the same ε and
// [c − r, c + r] as LDPQ (Alg. 1: outputs c ± rα, P(+) = 1/2 + (w − c)/(2rα),
// e^ε = (α + 1)/(α − 1)), decide exactly whether its per-coordinate output law equals LDPQ's at
// every input w.
//
// Method. Laws are compared as measures on the decoded values: atoms with equal values merge and
// zero atoms drop out. On [c − r, c + r] split at the baseline's breakpoints (RQM m = 3: c;
// SignSGD: 0), each probability of either law is a polynomial in w of degree at most D on each
// open piece (LDPQ: 1; PBM: m; RQM: 1; SignSGD: 0), and the set of values does not depend on w.
// Two such laws agree on a piece iff they agree at D + 1 distinct points of it (a nonzero
// polynomial of degree <= D has at most D roots). So comparing exactly, in rationals, at every
// breakpoint, both ends and D + 1 interior points of every piece decides equality for every w;
// the first point where they differ is the witness. (c itself is compared first, so that it is
// the witness whenever it is one.)

#include <functional>
#include <string>
#include <vector>

#include "corbin/quantizer/scalar_law.hpp"

namespace corbin {

/// "{v1: p1, v2: p2}" over the atoms with nonzero probability, values increasing.
std::string to_string(const ScalarLaw<Rational>& law);

/// The two laws as measures on the real line (merging equal values, ignoring zero atoms) are equal.
bool same_law(const ScalarLaw<Rational>& a, const ScalarLaw<Rational>& b);

/// LDPQ's law at w (Alg. 1): {c − rα: 1 − q, c + rα: q}, q = 1/2 + (w − c)/(2rα).
ScalarLaw<Rational> ldpq_law(const Rational& alpha, const Rational& center, const Rational& radius,
                             const Rational& w);

/// Both laws at one input the comparison looked at.
struct B1Comparison {
  Rational w;
  ScalarLaw<Rational> baseline, ldpq;
};

struct B1Result {
  std::string mechanism;      ///< e.g. "PBM (m = 2)"
  bool same_as_ldpq = false;  ///< the laws agree at every w in [c − r, c + r]
  Rational witness;           ///< an input where they differ (c when they are the same)
  ScalarLaw<Rational> baseline, ldpq;  ///< both laws at the witness
  /// Every input compared, in order, with both laws there: when the laws are the same, the points
  /// that decide every w (so that a certificate can carry the argument); else up to the witness.
  std::vector<B1Comparison> compared;
  /// "same as LDPQ" or "distinct".
  std::string verdict() const { return same_as_ldpq ? "same as LDPQ" : "distinct"; }
  /// The verdict with the witness and both laws there.
  std::string describe() const;
};

/// Decides B1 for one baseline, given its law as a function of w, the degree bound of its
/// probabilities in w and its breakpoints (see the header comment), against LDPQ at α.
B1Result b1_compare(const std::string& mechanism,
                    const std::function<ScalarLaw<Rational>(const Rational&)>& law, unsigned degree,
                    const std::vector<Rational>& breakpoints, const Rational& alpha,
                    const Rational& center, const Rational& radius);

/// B1 for PBM m = 1, PBM m = 2, RQM m = 2, RQM m = 3 (middle level kept with probability rqm_q)
/// and SignSGD, each calibrated to e^ε = exp_eps as its authors' code does. Exact: PBM at m = 2
/// needs e^(ε/2) rational, so exp_eps must be the square of a rational (else invalid_argument
/// ("exp_eps")); e.g. e^ε = 9.
std::vector<B1Result> b1_relation(const Rational& exp_eps, const Rational& center,
                                  const Rational& radius, const Rational& rqm_q);

}  // namespace corbin
