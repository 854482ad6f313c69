#pragma once
// The worst case over neighbouring datasets, reduced to finitely many configurations, and the
// proof of the reduction. Coq pins its core (proofs-check/coq/Neighbours.v).
//
// Setting: one coordinate of one round. Every output is c ± rα, so the released sum is an
// injective function of the count J of "+" outputs (and of the number of outputs). J is a sum of
// independent parts: one Bernoulli(q(w)) per LDPQ client, with
//     q(w) = 1/2 + (w − c)/(2rα) ∈ [q−, q+] = [1/2 − 1/(2α), 1/2 + 1/(2α)],
// and one count T ∈ {0, 1, 2} per CorBin pair, from the pair's joint law at its two inputs. Two
// neighbouring datasets differ in client 1 alone, in its input (replace one) or its presence
// (remove one, Eq. (1): a partner keeps its output). Every other input is the adversary's: the
// same in both datasets, anywhere in [c − r, c + r], and free to change from coordinate to
// coordinate and from round to round. A privacy bound must hold for all of them.
//
// Lemma 1 (convexity). For γ = e^ε >= 0, H_γ(P‖Q) = Σ_x (P(x) − γ Q(x))₊ is jointly convex in
// (P, Q). The law of J is linear in the law of each part (a convolution), so with every other
// part fixed, the worst law of one part over a set of laws is an extreme point of that set's
// convex hull. Applied to each client in turn, every client may be taken at an extreme point.
//
// Lemma 2 (other LDPQ clients). A Bernoulli(q) law is affine in q, so its extreme points are
// q− and q+: inputs c − r and c + r. LDPQ clients are interchangeable in a sum, so a
// configuration of the others is the number j of them at c + r, j = 0..L.
//
// Lemma 3 (other pairs). For d >= 1, the pair at (c, c) sends exactly one "+": both thresholds
// are the integer 2^(d−1), with no tie, in every variant (checked below on the exact law). Any
// pair's count is 1 + (T − 1), so the sum with that pair at another configuration is the sum
// with it at (c, c) plus an independent term whose law does not depend on client 1: a
// post-processing, never more distinguishable (for every γ). So every other pair sits at
// (c, c), contributing one "+" surely. At d = 0 (one shared value, no shared bit) the pair's two
// outputs are independent LDPQ outputs (corrected, as printed) and count as two LDPQ clients;
// the reference code's tie rule makes them constant instead, as at d >= 1.
//
// Lemma 4 (client 1 alone). Replace one: (Bernoulli(q), Bernoulli(q')) is affine in (q, q') on
// [q−, q+]², so (q+, q−) and (q−, q+) are the worst (q = q' gives H_γ = (1 − γ)₊, the least
// possible). Remove one: Bernoulli(q) against nothing, so q ∈ {q−, q+}.
//
// Lemma 5 (client 1 in a pair, partner input y). With u = 2^d q(x), v = 2^d (1 − q(y)) and
// their cells (a + f, a in Z, f in [0, 1]), the pair's joint law is a polynomial of degree at most
// one in each fractional part inside a box of fixed integer parts (step functions with values
// 0, 1, f; products only of different clients' functions). (Law(x, y), Law(x', y)) is then
// multilinear in (f_x, f_x', f_y) on each box, so by Lemma 1 the worst case is at the boxes'
// vertices: each input at an end of its range or at a grid point q = k/2^d. Where the law jumps
// across a grid point (as printed; the reference code at 2^d − 1) the box's vertex is the
// one-sided limit, a supremum no input attains. This enumeration is the general reduction.
//
// For the corrected CorBinQ it shrinks to four inputs. With v fixed in its cell [b, b + 1]:
//     u < b:           P(T = 2) = 0,               P(T = 0) = (v − u)/2^d,
//     b <= u <= b + 1: P(T = 2) = f_u (1 − f_v)/2^d, P(T = 0) = f_v (1 − f_u)/2^d,
//     u > b + 1:       P(T = 2) = (u − v)/2^d,       P(T = 0) = 0,
// continuous and piecewise linear in u with kinks at b and b + 1, so x (and x') is an end of
// its range or a kink. With x at an end or a kink, the law is linear in f_v within v's cell, so
// v is an end of its range or an integer. At an integer v = b the law is
//     T − 1 = +1 w.p. (u − b)₊/2^d,   −1 w.p. (b − u)₊/2^d,
// and for each choice (an end or the kink u = b) of x and x' the pair of laws is affine in b, so
// only the smallest and the largest integer b in the range count. All kinks lie in {⌈u−⌉, ⌊u+⌋}
// (u± = 2^d q±, u− + u+ = 2^d), so every input is one of
//     c − r,  c + r,  and the grid points q = ⌈u−⌉/2^d, q = ⌊u+⌋/2^d inside the range,
// all attained. Remove one: (Law(x, y), Bernoulli(q(y))) (the partner's output stays), the same
// argument with x alone. The tests compare this set with the general enumeration.

#include <optional>
#include <string>
#include <vector>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/exact/sum_law.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

/// An input of the adversary's choice, named by its LDPQ probability q: an end of the range
/// (q− at w = c − r, q+ at w = c + r) or a grid point q = a/2^d, where CorBinQ's threshold is the
/// integer a. `side` names a one-sided limit at a grid point, which no input attains.
struct InputPoint {
  enum class Kind { low, high, grid };
  Kind kind = Kind::low;
  BigInt a{0};   ///< grid only
  int side = 0;  ///< grid only: 0 the point itself, −1 the limit from below, +1 from above
  bool attained() const { return kind != Kind::grid || side == 0; }
  friend bool operator==(const InputPoint& x, const InputPoint& y) {
    return x.kind == y.kind && x.a == y.a && x.side == y.side;
  }
};

/// The input as a formula in c, r, α, d ("c - r", "c + r", "c + r·α·(2·17/2^5 - 1)").
std::string describe(const InputPoint& x, unsigned long bits);

/// q at c − r, 1/2 − 1/(2α) (at c + r it is 1 − q_low: Alg. 1's two ends).
template <class T>
T q_low(const T& alpha);

/// q of the input (an enclosure or the exact value; a one-sided limit's q is the grid point's).
template <class T>
T q_of(const InputPoint& x, const T& alpha, unsigned long bits);

/// The input's weight w = c + rα(2q − 1).
template <class T>
T weight_of(const InputPoint& x, const T& alpha, const Rational& center, const Rational& radius,
            unsigned long bits);

/// Client 1's part of the count in the two worlds: `with` (client 1 at x, its partner at
/// `partner`) and `neighbour` (client 1 at x2, or removed). P(count = i) for i from 0; `terms` is
/// the number of outputs the part counts (1 alone, 2 in a pair; removed: 0 alone, 1 the partner).
template <class T>
struct ClientCandidate {
  TargetClient::Role role = TargetClient::Role::ldpq;
  InputPoint x, x2;                   ///< x2: replace one only
  std::optional<InputPoint> partner;  ///< paired roles only
  std::vector<T> with, neighbour;
  unsigned terms_with = 1, terms_neighbour = 1;
  bool attained() const {
    return x.attained() && x2.attained() && (!partner || partner->attained());
  }
};

/// How the other pairs enter the worst case (Lemma 3): one sure "+" each, or two LDPQ clients.
enum class OtherPairs { one_plus, two_ldpq };
OtherPairs other_pairs(unsigned long bits, Variant variant);

/// Largest number of grid points the general enumeration visits (Lemma 5 for the as-printed and
/// reference-code variants; the corrected one needs four inputs whatever d).
constexpr unsigned long kMaxEnumeratedGrid = 64;

/// Every candidate for client 1 in `role` under `relation` (Lemmas 4 and 5), identical pairs of
/// laws listed once. Raises invalid_argument(bits) when the general enumeration would pass
/// kMaxEnumeratedGrid grid points, and undecidable where an enclosure cannot place a threshold.
template <class T>
std::vector<ClientCandidate<T>> client_candidates(const T& alpha, unsigned long bits,
                                                  Variant variant, TargetClient::Role role,
                                                  Neighbour relation);

/// The same, by the general enumeration over the grid (Lemma 5) whatever the variant: the
/// tests' reference for the corrected variant's four inputs.
template <class T>
std::vector<ClientCandidate<T>> enumerated_candidates(const T& alpha, unsigned long bits,
                                                      Variant variant, TargetClient::Role role,
                                                      Neighbour relation);

/// One configuration of the family: client 1's candidate and the number j of the other LDPQ
/// clients at c + r (the rest at c − r; every other pair at (c, c)).
struct Configuration {
  std::size_t candidate = 0;
  std::size_t top = 0;  ///< j
};

/// Every client's input in words, for reports: who is where in each world.
struct ConfigurationWords {
  std::string client_1, replaced_by, partner, others_ldpq, others_pairs;
  std::string dropout;  ///< who drops out and what is released, where clients drop (else empty)
  /// Client 1's input in each world, its role aside ("c - r | c + r"; "c + r | removed"): its
  /// data, so a mixture over its role (Accountant::mixture) pairs only configurations that agree.
  std::string inputs;
  /// In a mixture over client 1's role (Accountant::mixture), the draw that uses this
  /// configuration and its probability, "client 1 alone (probability 3/5)" (else empty).
  std::string when;
};
template <class T>
ConfigurationWords describe(const ClientCandidate<T>& candidate, std::size_t top,
                            std::size_t other_ldpq, std::size_t other_pairs, OtherPairs how,
                            unsigned long bits, Neighbour relation);

}  // namespace corbin
