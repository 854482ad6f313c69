#include "corbin/privacy/worst_case/neighbours.hpp"

#include <algorithm>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/ldpq.hpp"

namespace corbin {

std::string describe(const InputPoint& x, unsigned long bits) {
  switch (x.kind) {
    case InputPoint::Kind::low:
      return "c - r";
    case InputPoint::Kind::high:
      return "c + r";
    case InputPoint::Kind::grid:
      break;
  }
  std::string out = "c + r·α·(2·" + x.a.str() + "/2^" + std::to_string(bits) + " - 1)";
  if (x.side < 0) out += ", approached from below (not attained)";
  if (x.side > 0) out += ", approached from above (not attained)";
  return out;
}

template <class T>
T q_low(const T& alpha) {
  return T(T(1) / 2 - T(1) / (2 * alpha));
}

template <class T>
T q_of(const InputPoint& x, const T& alpha, unsigned long bits) {
  using N = NumTraits<T>;
  switch (x.kind) {
    case InputPoint::Kind::low:
      return q_low(alpha);
    case InputPoint::Kind::high:
      return T(1 - q_low(alpha));
    case InputPoint::Kind::grid:
      break;
  }
  return T(N::from(x.a) / N::from(pow2(bits)));
}

template <class T>
T weight_of(const InputPoint& x, const T& alpha, const Rational& center, const Rational& radius,
            unsigned long bits) {
  using N = NumTraits<T>;
  return T(N::from(center) + N::from(radius) * alpha * (2 * q_of(x, alpha, bits) - 1));
}

namespace {

/// The leader's threshold cell u = 2^d q, and the follower's v = 2^d (1 − q) (Alg. 2, line 3).
/// A one-sided limit at a grid point is the neighbouring cell with f = 1 where the cell changes
/// (u from below, v from above); elsewhere it is the point's own cell.
template <class T>
Cell<T> leader_cell(const InputPoint& x, const T& alpha, unsigned long bits) {
  if (x.kind == InputPoint::Kind::grid) {
    if (x.side < 0) return {BigInt(x.a - 1), T(1)};
    return {x.a, T(0)};
  }
  return split(T(NumTraits<T>::from(pow2(bits)) * q_of(x, alpha, bits)), "2^d q");
}

template <class T>
Cell<T> follower_cell(const InputPoint& y, const T& alpha, unsigned long bits) {
  const BigInt two_d = pow2(bits);
  if (y.kind == InputPoint::Kind::grid) {
    if (y.side > 0) return {BigInt(two_d - y.a - 1), T(1)};
    return {BigInt(two_d - y.a), T(0)};
  }
  return split(T(NumTraits<T>::from(two_d) * (1 - q_of(y, alpha, bits))), "2^d (1 - q)");
}

/// The pair's count law and its members' marginals, leader at x, follower at y.
template <class T>
struct PairLaw {
  std::vector<T> count;
  T leader_plus, follower_plus;
};

template <class T>
PairLaw<T> pair_law(const InputPoint& leader, const InputPoint& follower, const T& alpha,
                    unsigned long bits, Variant variant) {
  const JointLaw<T> j = joint_law_from_cells(
      leader_cell(leader, alpha, bits), follower_cell(follower, alpha, bits), pow2(bits), variant);
  return {{j.mm, T(j.pm + j.mp), j.pp}, j.plus1, j.plus2};
}

template <class T>
std::vector<T> bernoulli(const T& plus) {
  return {T(1 - plus), plus};
}

/// The grid points strictly inside (u−, u+), u± = 2^d q±: the integers a with u− < a < u+.
template <class T>
std::pair<BigInt, BigInt> inner_grid(const T& alpha, unsigned long bits) {
  const T u_low = T(NumTraits<T>::from(pow2(bits)) * q_low(alpha));
  const BigInt first = BigInt(NumTraits<T>::floor(u_low, "2^d q-") + 1);  // u− is never an integer
  const BigInt last = BigInt(pow2(bits) - first);                         // by u− + u+ = 2^d
  return {first, last};                                                   // empty when first > last
}

template <class T>
bool same_laws(const ClientCandidate<T>& a, const ClientCandidate<T>& b) {
  if constexpr (NumTraits<T>::kExact) {
    return a.role == b.role && a.terms_with == b.terms_with &&
           a.terms_neighbour == b.terms_neighbour && a.with == b.with && a.neighbour == b.neighbour;
  } else {
    return false;  // enclosures: kept apart (the bound only loses time)
  }
}

template <class T>
void add_unique(std::vector<ClientCandidate<T>>& out, ClientCandidate<T> c) {
  for (const ClientCandidate<T>& x : out)
    if (same_laws(x, c)) return;
  out.push_back(std::move(c));
}

template <class T>
std::vector<ClientCandidate<T>> alone_candidates(const T& alpha, unsigned long bits,
                                                 Neighbour relation) {
  const InputPoint low{InputPoint::Kind::low}, high{InputPoint::Kind::high};
  std::vector<ClientCandidate<T>> out;
  for (const auto& [x, x2] : {std::pair{high, low}, std::pair{low, high}}) {
    ClientCandidate<T> c;
    c.x = x;
    c.with = bernoulli(q_of(x, alpha, bits));
    if (relation == Neighbour::replace_one) {
      c.x2 = x2;
      c.neighbour = bernoulli(q_of(x2, alpha, bits));
    } else {
      c.neighbour = {T(1)};
      c.terms_neighbour = 0;
    }
    add_unique(out, std::move(c));
  }
  return out;
}

/// Client 1 in a pair at (x, y) in `role` (leader or follower), against x2 or its removal.
template <class T>
ClientCandidate<T> paired(TargetClient::Role role, const InputPoint& x, const InputPoint& x2,
                          const InputPoint& y, const T& alpha, unsigned long bits, Variant variant,
                          Neighbour relation) {
  const bool lead = role == TargetClient::Role::leader;
  const PairLaw<T> with =
      lead ? pair_law(x, y, alpha, bits, variant) : pair_law(y, x, alpha, bits, variant);
  ClientCandidate<T> c;
  c.role = role;
  c.x = x;
  c.partner = y;
  c.with = with.count;
  c.terms_with = 2;
  if (relation == Neighbour::replace_one) {
    c.x2 = x2;
    c.neighbour =
        (lead ? pair_law(x2, y, alpha, bits, variant) : pair_law(y, x2, alpha, bits, variant))
            .count;
    c.terms_neighbour = 2;
  } else {  // Eq. (1): the partner's output, the same random variable as in the pair
    c.neighbour = bernoulli(lead ? with.follower_plus : with.leader_plus);
    c.terms_neighbour = 1;
  }
  return c;
}

/// The corrected variant's four inputs (Lemma 5): the ends and ⌈u−⌉, ⌊u+⌋ inside.
template <class T>
std::vector<InputPoint> corrected_inputs(const T& alpha, unsigned long bits) {
  std::vector<InputPoint> out{{InputPoint::Kind::low}, {InputPoint::Kind::high}};
  const auto [first, last] = inner_grid(alpha, bits);
  if (first <= last) {
    out.push_back({InputPoint::Kind::grid, first, 0});
    if (last != first) out.push_back({InputPoint::Kind::grid, last, 0});
  }
  return out;
}

/// Every vertex of the boxes (Lemma 5) for a leader (sides 0, −1) or a follower (0, +1).
template <class T>
std::vector<InputPoint> enumerated_inputs(const T& alpha, unsigned long bits, bool leader) {
  const auto [first, last] = inner_grid(alpha, bits);
  if (first <= last && BigInt(last - first + 1) > kMaxEnumeratedGrid)
    throw invalid_argument(
        "bits", std::to_string(bits),
        "such that at most " + std::to_string(kMaxEnumeratedGrid) +
            " grid points lie inside the input range: the worst case of a paired client under "
            "this CorBinQ variant enumerates them (the corrected variant needs four inputs)");
  std::vector<InputPoint> out{{InputPoint::Kind::low}, {InputPoint::Kind::high}};
  for (BigInt a = first; a <= last; ++a) {
    out.push_back({InputPoint::Kind::grid, a, 0});
    out.push_back({InputPoint::Kind::grid, a, leader ? -1 : 1});
  }
  // Where an end of the range is itself a grid point (only an exact α allows it), the limit
  // from inside the range is a vertex too: for a leader at q+ from below, for a follower at q−
  // from above (its v = 2^d (1 − q) then approaches 2^d q+ from below).
  if constexpr (NumTraits<T>::kExact) {
    const Rational end = pow2(bits) * (leader ? Rational(1 - q_low(alpha)) : q_low(alpha));
    if (denominator(end) == 1)
      out.push_back({InputPoint::Kind::grid, numerator(end), leader ? -1 : 1});
  }
  return out;
}

template <class T>
std::vector<ClientCandidate<T>> pair_candidates(const std::vector<InputPoint>& xs,
                                                const std::vector<InputPoint>& ys,
                                                TargetClient::Role role, const T& alpha,
                                                unsigned long bits, Variant variant,
                                                Neighbour relation) {
  std::vector<ClientCandidate<T>> out;
  for (const InputPoint& y : ys)
    for (const InputPoint& x : xs) {
      if (relation == Neighbour::remove_one) {
        add_unique(out, paired(role, x, x, y, alpha, bits, variant, relation));
        continue;
      }
      for (const InputPoint& x2 : xs)
        if (!(x == x2)) add_unique(out, paired(role, x, x2, y, alpha, bits, variant, relation));
    }
  return out;
}

}  // namespace

OtherPairs other_pairs(unsigned long bits, Variant variant) {
  // q = 1/2 for both members whatever α: the law does not depend on α, so α = 2 stands for all.
  const InputPoint centre{InputPoint::Kind::grid, bits == 0 ? BigInt(0) : pow2(bits - 1), 0};
  if (bits == 0) {
    const Cell<Rational> half{BigInt(0), Rational(1, 2)};
    const JointLaw<Rational> j = joint_law_from_cells(half, half, BigInt(1), variant);
    return j.pm + j.mp == 1 ? OtherPairs::one_plus : OtherPairs::two_ldpq;
  }
  const PairLaw<Rational> law = pair_law(centre, centre, Rational(2), bits, variant);
  if (law.count[1] != 1)
    throw std::logic_error("Lemma 3: the pair at (c, c) does not send exactly one '+' at d = " +
                           std::to_string(bits));
  return OtherPairs::one_plus;
}

template <class T>
std::vector<ClientCandidate<T>> client_candidates(const T& alpha, unsigned long bits,
                                                  Variant variant, TargetClient::Role role,
                                                  Neighbour relation) {
  if (role == TargetClient::Role::ldpq) return alone_candidates(alpha, bits, relation);
  if (variant != Variant::corrected)
    return enumerated_candidates(alpha, bits, variant, role, relation);
  const std::vector<InputPoint> inputs = corrected_inputs(alpha, bits);
  return pair_candidates(inputs, inputs, TargetClient::Role::leader, alpha, bits, variant,
                         relation);
}

template <class T>
std::vector<ClientCandidate<T>> enumerated_candidates(const T& alpha, unsigned long bits,
                                                      Variant variant, TargetClient::Role role,
                                                      Neighbour relation) {
  if (role == TargetClient::Role::ldpq) return alone_candidates(alpha, bits, relation);
  const std::vector<InputPoint> lead = enumerated_inputs(alpha, bits, true),
                                follow = enumerated_inputs(alpha, bits, false);
  // Client 1 in either position of its pair: as leader (partner following), then as follower.
  std::vector<ClientCandidate<T>> out =
      pair_candidates(lead, follow, TargetClient::Role::leader, alpha, bits, variant, relation);
  for (ClientCandidate<T>& c :
       pair_candidates(follow, lead, TargetClient::Role::follower, alpha, bits, variant, relation))
    add_unique(out, std::move(c));
  return out;
}

template <class T>
ConfigurationWords describe(const ClientCandidate<T>& c, std::size_t top, std::size_t other_ldpq,
                            std::size_t other_pairs, OtherPairs how, unsigned long bits,
                            Neighbour relation) {
  ConfigurationWords w;
  const char* role = c.role == TargetClient::Role::ldpq     ? "on LDPQ"
                     : c.role == TargetClient::Role::leader ? "leading a pair"
                                                            : "following in a pair";
  w.client_1 = std::string("client 1 ") + role + " at " + describe(c.x, bits);
  w.replaced_by = relation == Neighbour::replace_one ? "client 1 at " + describe(c.x2, bits)
                                                     : std::string("client 1 removed (Eq. (1))");
  if (c.partner) w.partner = "its partner at " + describe(*c.partner, bits);
  w.inputs = describe(c.x, bits) + " | " +
             (relation == Neighbour::replace_one ? describe(c.x2, bits) : std::string("removed"));
  w.others_ldpq = std::to_string(top) + " of the other " + std::to_string(other_ldpq) +
                  " LDPQ clients at c + r, the rest at c - r";
  w.others_pairs =
      std::to_string(other_pairs) + " other pairs at (c, c)" +
      (how == OtherPairs::two_ldpq ? std::string(" (d = 0: counted among the LDPQ clients)") : "");
  return w;
}

#define CORBIN_NEIGHBOURS(T)                                                                      \
  template T q_low<T>(const T&);                                                                  \
  template T q_of<T>(const InputPoint&, const T&, unsigned long);                                 \
  template T weight_of<T>(const InputPoint&, const T&, const Rational&, const Rational&,          \
                          unsigned long);                                                         \
  template std::vector<ClientCandidate<T>> client_candidates<T>(const T&, unsigned long, Variant, \
                                                                TargetClient::Role, Neighbour);   \
  template std::vector<ClientCandidate<T>> enumerated_candidates<T>(                              \
      const T&, unsigned long, Variant, TargetClient::Role, Neighbour);                           \
  template ConfigurationWords describe<T>(const ClientCandidate<T>&, std::size_t, std::size_t,    \
                                          std::size_t, OtherPairs, unsigned long, Neighbour);
CORBIN_NEIGHBOURS(Rational)
CORBIN_NEIGHBOURS(Interval)
#undef CORBIN_NEIGHBOURS

}  // namespace corbin
