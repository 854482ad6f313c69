#pragma once
// Parameter-level LDP (Eq. LDP; conditions C2 and C5): the largest likelihood ratio
//     sup_{o} sup_{w, w'} P(Q(w) = o) / P(Q(w') = o)
// of one client's output over inputs in [c − r, c + r]. For a CorBinQ client the partner's input
// is held fixed (it is not the client's data) and the ratio is maximised over it as well.
//
// Method. A client's marginal is, on each threshold cell [a, a + 1) of its own position
// (u = 2^d q1 for the leader, v = 2^d (1 − q2) for the follower), an affine function of the
// fractional part, and depends on the partner only through the partner's cell index. Extremes
// over a cell therefore sit at its two ends (the right end possibly a limit, not attained), and
// by monotonicity in the cell index only cells next to the ends of the input range, next to the
// partner's cell, and the top cell 2^d − 1 can be extremal. This O(1) candidate set is checked
// against exhaustive enumeration of every cell end for small d in the tests.

#include <vector>

#include "corbin/quantizer/corbinq.hpp"

namespace corbin {

template <class T>
struct PldpResult {
  bool unbounded = false;  ///< some output has probability 0 for one input and > 0 for another
  T ratio;                 ///< the supremum of the likelihood ratio (when bounded)
  T bound;                 ///< e^ε = (α + 1)/(α − 1), the claimed bound
  int client = 1;          ///< 1: leader (Q1), 2: follower (Q2)
  int output = 1;          ///< +1: c + rα, −1: c − rα
  T w_high, w_low;         ///< own inputs giving the numerator and the denominator
  T w_partner;             ///< the partner's input (CorBinQ only; equals w_high for LDPQ)
  bool attained = true;    ///< false when the supremum is only approached as a limit
};

/// e^ε = (α + 1)/(α − 1).
template <class T>
T exp_eps_of(const T& alpha) {
  return T((alpha + 1) / (alpha - 1));
}

/// LDPQ (Alg. 1): P(+ | w) = q(w) is affine and increasing, so the ratio is q(c + r)/q(c − r)
/// = (α + 1)/(α − 1) = e^ε, attained at the ends of the input range.
template <class T>
PldpResult<T> ldpq_pldp(const T& alpha, const Rational& center, const Rational& radius) {
  using N = NumTraits<T>;
  check_radius(radius);
  const Rational hi = center + radius, lo = center - radius;
  PldpResult<T> r;
  r.ratio = T(ldpq_q(alpha, center, radius, hi) / ldpq_q(alpha, center, radius, lo));
  r.bound = exp_eps_of(alpha);
  r.w_high = N::from(hi);
  r.w_low = N::from(lo);
  r.w_partner = r.w_high;
  return r;
}

namespace detail {

template <class T>
struct CandidatePoint {
  Cell<T> cell;
  bool attained;
};

/// Both ends of each listed cell, restricted to the range [lo, hi] of threshold positions.
template <class T>
std::vector<CandidatePoint<T>> cell_ends(std::vector<BigInt> cells, const Cell<T>& lo,
                                         const Cell<T>& hi) {
  std::vector<CandidatePoint<T>> points;
  for (const BigInt& k : cells) {
    if (k < lo.index || k > hi.index) continue;
    points.push_back({{k, k == lo.index ? lo.frac : T(0)}, true});
    if (k == hi.index)
      points.push_back({{k, hi.frac}, true});
    else
      points.push_back({{k, T(1)}, false});  // limit from the left of k + 1
  }
  return points;
}

/// The input w whose threshold position is `cell` (leader: u = 2^d q; follower: v = 2^d (1 − q)).
template <class T>
T input_at(const Cell<T>& cell, const T& two_d, const T& level, const Rational& center,
           int client) {
  const T q_leader = T((NumTraits<T>::from(cell.index) + cell.frac) / two_d);
  const T q = client == 1 ? q_leader : T(1 - q_leader);
  return T(NumTraits<T>::from(center) + level * (2 * q - 1));
}

/// Orders candidate witnesses: larger value first, then attained before a limit. Only the
/// witness depends on this choice; the reported ratio is the certified max over all candidates.
template <class T>
bool better(const T& a, bool a_attained, const T& b, bool b_attained) {
  using N = NumTraits<T>;
  if constexpr (N::kExact) {
    if (a != b) return b < a;
  } else {
    const double x = N::approx(a), y = N::approx(b);
    if (std::abs(x - y) > 1e-12 * std::max(std::abs(x), std::abs(y))) return x > y;
  }
  return a_attained && !b_attained;
}

}  // namespace detail

template <class T>
PldpResult<T> corbinq_pldp(const T& alpha, const Rational& center, const Rational& radius,
                           unsigned long bits, Variant variant) {
  using N = NumTraits<T>;
  check_radius(radius);
  if constexpr (std::is_same_v<T, double>) check_bits(static_cast<long long>(bits), kMaxBitsDouble);
  else check_bits(static_cast<long long>(bits));
  const BigInt two_d = pow2(bits);
  const T d = N::from(two_d);
  const T level = ldpq_level(alpha, radius);
  // Threshold positions range over [2^d q(c − r), 2^d q(c + r)] for both clients.
  const Cell<T> lo = split(T(d * ldpq_q(alpha, center, radius, Rational(center - radius))), "2^d q(c - r)");
  const Cell<T> hi = split(T(d * ldpq_q(alpha, center, radius, Rational(center + radius))), "2^d q(c + r)");
  const BigInt top = two_d - 1;
  std::vector<BigInt> base{lo.index, lo.index + 1, lo.index + 2, hi.index - 1, hi.index, top};
  const auto partner_points = detail::cell_ends(base, lo, hi);

  PldpResult<T> best;
  best.bound = exp_eps_of(alpha);
  bool have = false;
  T certified = 0;  // max over everything, as an enclosure for Interval
  for (int client : {1, 2}) {
    for (const auto& partner : partner_points) {
      std::vector<BigInt> own_cells = base;
      for (int k = -1; k <= 2; ++k) own_cells.push_back(partner.cell.index + k);
      const auto own_points = detail::cell_ends(own_cells, lo, hi);
      std::vector<T> plus;
      plus.reserve(own_points.size());
      for (const auto& own : own_points) {
        const auto law = client == 1 ? joint_law_from_cells(own.cell, partner.cell, two_d, variant)
                                     : joint_law_from_cells(partner.cell, own.cell, two_d, variant);
        plus.push_back(client == 1 ? law.q1_plus() : law.q2_plus());
      }
      for (int output : {1, -1}) {
        std::vector<T> p;  // P(output | own point)
        p.reserve(plus.size());
        for (const T& x : plus) p.push_back(output == 1 ? x : T(1 - x));
        std::size_t i_max = 0, i_min = 0;
        T p_max = p[0], p_min = p[0];
        for (std::size_t i = 1; i < p.size(); ++i) {
          if (detail::better(p[i], own_points[i].attained, p[i_max], own_points[i_max].attained))
            i_max = i;
          if (detail::better(T(-p[i]), own_points[i].attained, T(-p[i_min]),
                             own_points[i_min].attained))
            i_min = i;
          p_max = N::max(p_max, p[i]);
          p_min = N::min(p_min, p[i]);
        }
        PldpResult<T> r;
        r.bound = best.bound;
        r.client = client;
        r.output = output;
        r.w_high = detail::input_at(own_points[i_max].cell, d, level, center, client);
        r.w_low = detail::input_at(own_points[i_min].cell, d, level, center, client);
        r.w_partner = detail::input_at(partner.cell, d, level, center, 3 - client);
        r.attained = own_points[i_max].attained && own_points[i_min].attained && partner.attained;
        if (N::is_zero(p_min)) {
          if (N::is_zero(p_max)) continue;  // this output never occurs: no constraint
          r.unbounded = true;
          r.ratio = 0;
          if (!best.unbounded) {
            best = r;
            have = true;
          }
          continue;
        }
        r.ratio = T(p_max / p_min);
        if (best.unbounded) continue;
        certified = have ? N::max(certified, r.ratio) : r.ratio;
        if (!have || detail::better(r.ratio, r.attained, best.ratio, best.attained)) best = r;
        have = true;
      }
    }
  }
  if (!best.unbounded) best.ratio = certified;
  return best;
}

}  // namespace corbin
