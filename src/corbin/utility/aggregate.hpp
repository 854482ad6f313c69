#pragma once
// Aggregate utility of CorBin-FL (Alg. 3, Theorem 2) for one coordinate: n clients with weights
// w_i, paired by a given pairing (each pair runs CorBinQ on its own Z), unpaired clients running
// LDPQ. The server's estimate is the mean of the outputs; its exact MSE is
//     E[(mean(Q) − mean(w))^2] = (1/n^2) [Σ_k E[e_k^2] + (Σ_k b_k)^2 − Σ_k b_k^2],
// where k runs over independent units (pairs and singles), e_k is the unit's summed error and
// b_k = E[e_k] its bias (zero for every unbiased variant).

#include <cstddef>
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
  if (weights.empty()) throw invalid_argument("weights", "empty", "a list of at least one weight");
  check_pairing(pairing, weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i)
    check_weight(("weights[" + std::to_string(i) + "]").c_str(), weights[i], center, radius);
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

}  // namespace corbin
