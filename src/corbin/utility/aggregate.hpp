#pragma once
// Aggregate utility of CorBin-FL (Alg. 3, Theorem 2) for one coordinate: n clients with weights
// w_i, paired by a given pairing (each pair runs CorBinQ on its own Z), unpaired clients running
// LDPQ. The server's estimate is the mean of the outputs; its exact MSE is
//     E[(mean(Q) − mean(w))^2] = (1/n^2) [Σ_k E[e_k^2] + (Σ_k b_k)^2 − Σ_k b_k^2],
// where k runs over independent units (pairs and singles), e_k is the unit's summed error and
// b_k = E[e_k] its bias (zero for every unbiased variant).
//
// `corbin fl` does not take a pairing: the server draws a uniformly random order each round
// (fl/mechanism.hpp: draw_roles), puts its first `lone` clients on LDPQ and pairs the rest
// consecutively (leader, follower), an odd one out last on LDPQ too. random_order_aggregate_mse
// is the MSE at given inputs over that order as well, i.e. aggregate_mse averaged over the n!
// orders, in closed form (below) rather than by enumeration.

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "corbin/utility/pair_mse.hpp"

namespace corbin {

/// (leader, follower) index pairs; each client at most once. Clients not named use LDPQ.
using Pairing = std::vector<std::pair<std::size_t, std::size_t>>;

/// (0,1), (2,3), ...; with odd n the last client is left to LDPQ.
Pairing consecutive_pairing(std::size_t n);

/// Parses "0-1,2-3" into a pairing; raises invalid_argument(pairing).
Pairing parse_pairing(const std::string& text);

/// Raises invalid_argument(pairing) for an index >= n or one used twice.
void check_pairing(const Pairing& pairing, std::size_t n);

template <class T>
T aggregate_mse(const T& alpha, const Rational& center, const Rational& radius,
                const std::vector<Rational>& weights, const Pairing& pairing, unsigned long bits,
                Variant variant) {
  using N = NumTraits<T>;
  check_weights(weights, center, radius);
  check_pairing(pairing, weights.size());
  std::vector<bool> paired(weights.size(), false);
  T second_moments = 0, bias_sum = 0, bias_squares = 0;
  for (const auto& [i, j] : pairing) {
    paired[i] = paired[j] = true;
    const auto law = corbinq_joint_law(alpha, center, radius, weights[i], weights[j], bits, variant);
    const auto g = pair_geometry(alpha, center, radius, weights[i], weights[j]);
    const T b = pair_bias(law, g);
    second_moments += pair_mse(law, g);
    bias_sum += b;
    bias_squares += b * b;
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (paired[i]) continue;
    second_moments += ldpq_mse(alpha, center, radius, weights[i]);
  }
  const T n = N::from(Rational(static_cast<long>(weights.size())));
  return T((second_moments + bias_sum * bias_sum - bias_squares) / (n * n));
}

/// aggregate_mse over the server's uniformly random order of the n clients, the first `lone`
/// positions on LDPQ and the rest in consecutive (leader, follower) pairs. With A clients alone
/// and P = ⌊(n − lone)/2⌋ pairs, a client is alone with probability A/n, a given ordered pair
/// (i, j) is a unit with probability P/(n(n − 1)), and two given disjoint ordered pairs both are
/// with probability P(P − 1)/(n(n − 1)(n − 2)(n − 3)). So n² times the MSE is
///     (A/n) Σ_i L_i + P/(n(n − 1)) Σ_(i≠j) M_ij + P(P − 1)/(n(n − 1)(n − 2)(n − 3)) D,
/// with L_i LDPQ's MSE at w_i, M_ij and b_ij the pair's E[e²] and bias (leader i, follower j),
/// and D = Σ b_ij b_kl over ordered pairs of disjoint ordered pairs (the cross terms of the biases;
/// 0 for an unbiased variant): the sum over all ordered pairs of ordered pairs, B², less those
/// that share a client, Σ_x S_x² − Σ_(i≠j) b_ij (b_ij + b_ji) with S_x the sum of b over the
/// ordered pairs that contain x (a pair sharing one client is counted once in Σ_x S_x², one
/// sharing both, itself or its reverse, twice). The pair laws depend on the two weights only, so
/// they are computed once per ordered pair of distinct weight values (clients with equal inputs
/// share them). Raises invalid_argument(lone) for lone > n, and as aggregate_mse for the weights.
template <class T>
T random_order_aggregate_mse(const T& alpha, const Rational& center, const Rational& radius,
                             const std::vector<Rational>& weights, std::size_t lone, unsigned long bits,
                             Variant variant) {
  check_weights(weights, center, radius);
  const std::size_t n = weights.size();
  if (lone > n) throw invalid_argument("lone", std::to_string(lone), "at most n = " + std::to_string(n));
  std::map<Rational, std::size_t> count;  // each distinct input and how many clients have it
  for (const Rational& w : weights) ++count[w];
  const std::vector<std::pair<Rational, std::size_t>> values(count.begin(), count.end());
  const std::size_t k = values.size(), pairs = (n - lone) / 2, alone = n - 2 * pairs;
  const auto of = [](std::size_t x) { return NumTraits<T>::from(Rational(BigInt(x))); };
  T lone_sum = 0;
  for (const auto& [w, m] : values) lone_sum += of(m) * ldpq_mse(alpha, center, radius, w);
  T total = T(of(alone) * lone_sum / of(n));
  if (pairs == 0) return T(total / (of(n) * of(n)));
  // Every ordered pair of distinct values (u, v), u = v too: M(u, v), b(u, v).
  std::vector<T> second(k * k), bias(k * k);
  for (std::size_t u = 0; u < k; ++u)
    for (std::size_t v = 0; v < k; ++v) {
      const auto law = corbinq_joint_law(alpha, center, radius, values[u].first, values[v].first, bits, variant);
      const auto g = pair_geometry(alpha, center, radius, values[u].first, values[v].first);
      second[u * k + v] = pair_mse(law, g);
      bias[u * k + v] = pair_bias(law, g);
    }
  // Sums over ordered pairs of distinct clients: over all value pairs weighted m_u m_v, less a
  // client paired with itself (m_u times the diagonal).
  T m_sum = 0, b_sum = 0, shared_twice = 0, shared_once = 0;
  for (std::size_t u = 0; u < k; ++u) {
    const T mu = of(values[u].second);
    const T buu = bias[u * k + u];
    T row = 0, column = 0;
    for (std::size_t v = 0; v < k; ++v) {
      const T mv = of(values[v].second);
      const T buv = bias[u * k + v];
      m_sum += mu * mv * second[u * k + v];
      b_sum += mu * mv * buv;
      shared_twice += mu * mv * buv * (buv + bias[v * k + u]);
      row += mv * buv;
      column += mv * bias[v * k + u];
    }
    m_sum -= mu * second[u * k + u];
    b_sum -= mu * buu;
    shared_twice -= mu * buu * (buu + buu);
    const T s = row + column - buu - buu;  // S_x for a client x of value u
    shared_once += mu * s * s;
  }
  total += of(pairs) * m_sum / (of(n) * of(n - 1));
  if (pairs >= 2) {  // then n >= 4
    const T disjoint = b_sum * b_sum - shared_once + shared_twice;
    total += of(pairs) * of(pairs - 1) * disjoint / (of(n) * of(n - 1) * of(n - 2) * of(n - 3));
  }
  return T(total / (of(n) * of(n)));
}

}  // namespace corbin
