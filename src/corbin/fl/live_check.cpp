#include "corbin/fl/live_check.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/cq.hpp"
#include "corbin/quantizer/sampler.hpp"
#include "corbin/utility/pair_mse.hpp"

namespace corbin::fl {
namespace {

/// Second and fourth moments and the mean of one independent part X (a client's or a pair's
/// output minus its clipped weights) at one coordinate.
struct Moments {
  Rational mean, m2, m4;
};

Moments moments(const std::vector<std::pair<Rational, Rational>>& values_and_probabilities) {
  Moments m{Rational(0), Rational(0), Rational(0)};
  for (const auto& [x, p] : values_and_probabilities) {
    const Rational x2 = x * x;
    m.mean += p * x;
    m.m2 += p * x2;
    m.m4 += p * x2 * x2;
  }
  return m;
}

/// CQ's E e², E e⁴ at sampled coordinate s: e = (2r/K) D with D = Σ B − Σ y (cq_error_moments).
CqMoments cq_moments(const std::vector<std::size_t>& survivors, const SampledWeights& weights, std::size_t s,
                     const Geometry& g) {
  std::vector<double> y;
  for (std::size_t i : survivors) y.push_back((clip(g, weights.at(i, s)) - (g.c - g.r)) / (2 * g.r));
  const CqMoments d = cq_error_moments(y);
  const double scale = 2 * g.r / static_cast<double>(survivors.size()), s2 = scale * scale;
  return {s2 * d.m2, s2 * s2 * d.m4};
}

}  // namespace

std::vector<std::size_t> live_check_coordinates(const std::vector<Layer>& layers, std::uint64_t seed,
                                                std::uint64_t round, std::size_t per_layer) {
  std::vector<std::size_t> coordinates;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    const auto order = permutation(
        layer.size, derive_key(seed, "live check round " + std::to_string(round) + " layer " + std::to_string(l)));
    for (std::size_t s = 0; s < std::min(per_layer, layer.size); ++s) coordinates.push_back(layer.offset + order[s]);
  }
  return coordinates;
}

SampledWeights sample_weights(const std::vector<std::vector<float>>& clients, std::vector<std::size_t> coordinates) {
  SampledWeights out{std::move(coordinates), {}};
  for (const auto& w : clients)
    for (std::size_t t : out.coordinates) out.values.push_back(w.at(t));
  return out;
}

LiveCheck live_check(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                     const std::vector<Layer>& layers, const MechanismConfig& config, const RoundResult& result,
                     std::uint64_t round, std::size_t per_layer) {
  return live_check(sample_weights(clients, live_check_coordinates(layers, config.seed, round, per_layer)), global,
                    layers, config, result);
}

namespace {

/// What a layer's coordinates share: the geometry, the sampler's law or the noise's moments.
struct LayerTerms {
  Geometry g;
  std::optional<FixedPointLaw> law;
  Rational plus, minus;
  double noise_var = 0, noise_m4 = 0, alpha = 0, level = 0;
};

/// One coordinate's contributions to the round's sums.
struct CoordinateTerms {
  double e2 = 0, expected = 0, var = 0, bound = 0;
};

}  // namespace

LiveCheck live_check(const SampledWeights& weights, const std::vector<float>& global, const std::vector<Layer>& layers,
                     const MechanismConfig& config, const RoundResult& result) {
  if (config.kind == Mechanism::vanilla)
    throw invalid_argument("mechanism", "vanilla", "a randomised mechanism for the live check");
  LiveCheck out;
  if (result.survivors() == 0) return out;
  const Rational k{BigInt(result.survivors())};
  const bool cq = config.kind == Mechanism::cq;
  const bool quantized = config.kind != Mechanism::gaussian && config.kind != Mechanism::laplace && !cq;
  // Per layer (sequentially: this part uses MPFR's precision setting).
  std::vector<LayerTerms> terms(layers.size());
  std::vector<std::size_t> layer_of(weights.coordinates.size());
  std::size_t next = 0;  // the coordinates come layer by layer
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    LayerTerms& lt = terms[l];
    lt.g = layer_geometry(global.data() + layer.offset, layer.size);
    while (next < weights.coordinates.size() && weights.coordinates[next] >= layer.offset &&
           weights.coordinates[next] < layer.offset + layer.size)
      layer_of[next++] = l;
    // Quantizers: the sampler's own law. Noise baselines: X is the noise, E X = 0, and
    // E X² = σ², E X⁴ = 3σ⁴ (Gaussian) or E X² = 2b², E X⁴ = 24b⁴ (Laplace).
    if (quantized) {
      lt.law.emplace(config.budget, to_rational(lt.g.c), to_rational(lt.g.r));
      lt.plus = to_rational(lt.law->plus_value());
      lt.minus = to_rational(lt.law->minus_value());
    } else if (!cq) {
      const double scale = noise_scale(config, lt.g);
      const bool gaussian = config.kind == Mechanism::gaussian;
      lt.noise_var = (gaussian ? 1 : 2) * scale * scale;
      lt.noise_m4 = (gaussian ? 3 : 24) * scale * scale * scale * scale;
    }
    PrecisionScope scope(128);
    lt.alpha = config.budget.exact() ? to_double(config.budget.alpha_exact())
                                     : midpoint_of(config.budget.alpha_interval()).convert_to<double>();
    lt.level = lt.g.r * lt.alpha;
  }
  if (next != weights.coordinates.size())
    throw invalid_argument("coordinates", "out of layer order", "as live_check_coordinates gives them");
  // Per coordinate. (Sequential on purpose: spread over 8 threads in each of 6 runs sharing a
  // 16-core GPU machine, GMP's allocations made this 20 to 30 times slower, not faster.)
  std::vector<CoordinateTerms> slots(weights.coordinates.size());
  for (std::size_t s = 0; s < slots.size(); ++s) {
    const LayerTerms& lt = terms[layer_of[s]];
    const Geometry& g = lt.g;
    const std::size_t t = weights.coordinates[s];
    const auto clipped = [&](std::size_t i) { return to_rational(clip(g, weights.at(i, s))); };
    const double e = static_cast<double>(result.aggregate[t]) - result.clipped_mean[t];
    CoordinateTerms& c = slots[s];
    c.e2 = e * e;
    if (cq) {
      const CqMoments cm = cq_moments(result.alone_clients, weights, s, g);
      c.expected = cm.m2;
      c.var = std::max(0.0, cm.m4 - cm.m2 * cm.m2);
      continue;
    }
    std::vector<Moments> parts;
    bool nan = false;
    for (std::size_t i : result.alone_clients) {
      if (!quantized) {
        parts.push_back({Rational(0), to_rational(lt.noise_var), to_rational(lt.noise_m4)});
        continue;
      }
      const Rational q(BigInt(lt.law->fixed_q(weights.at(i, s), nan)), BigInt(pow2(kFixedBits)));
      const Rational w = clipped(i);
      parts.push_back(moments({{lt.plus - w, q}, {lt.minus - w, Rational(1 - q)}}));
    }
    for (const auto& [a, b] : result.pair_clients) {
      const JointLaw<Rational> j = fixed_point_joint_law(lt.law->fixed_q(weights.at(a, s), nan),
                                                         lt.law->fixed_q(weights.at(b, s), nan), config.bits);
      const Rational w = clipped(a) + clipped(b);
      const Rational& plus = lt.plus;
      const Rational& minus = lt.minus;
      parts.push_back(moments({{plus + plus - w, j.pp}, {plus + minus - w, j.pm}, {minus + plus - w, j.mp},
                               {minus + minus - w, j.mm}}));
    }
    // e = (1/k) Σ X_j: E e² = (Σ E X_j² − Σ μ_j² + (Σ μ_j)²)/k², exactly; Var(e²) from the
    // centred fourth moments (the means are ~2^−32 of the level and are neglected there).
    Rational m2_sum(0), mu_sum(0), mu2_sum(0), m4_sum(0), m2_squares(0);
    for (const Moments& m : parts) {
      m2_sum += m.m2;
      mu_sum += m.mean;
      mu2_sum += m.mean * m.mean;
      m4_sum += m.m4;
      m2_squares += m.m2 * m.m2;
    }
    const Rational expected = (m2_sum - mu2_sum + mu_sum * mu_sum) / (k * k);
    const Rational fourth = (m4_sum + 3 * (m2_sum * m2_sum - m2_squares)) / (k * k * k * k);
    c.expected = to_double(expected);
    c.var = std::max(0.0, to_double(Rational(fourth - expected * expected)));
    // Thm 2/3 (d → ∞) plus Thm 1's gap bound r²α²/2^(d−6) per pair; noise: its variance.
    const double alone = static_cast<double>(result.alone_clients.size()),
                 pairs = static_cast<double>(result.pair_clients.size()), kk = to_double(k);
    const double alpha = lt.alpha;
    c.bound = quantized ? (alone * lt.level * lt.level +
                           pairs * g.r * g.r *
                               (paper_pair_constant(alpha) +
                                alpha * alpha * std::ldexp(64.0, -static_cast<int>(config.bits)))) /
                              (kk * kk)
                        : alone * lt.noise_var / (kk * kk);
  }
  double sum_e2 = 0, sum_expected = 0, sum_var = 0, sum_bound = 0;
  for (const CoordinateTerms& c : slots) {
    sum_e2 += c.e2;
    sum_expected += c.expected;
    sum_var += c.var;
    sum_bound += c.bound;
  }
  out.coordinates = slots.size();
  const double m = static_cast<double>(out.coordinates);
  out.mse_expected = sum_expected / m;
  out.mse_empirical = sum_e2 / m;
  out.z = sum_var > 0 ? (sum_e2 - sum_expected) / std::sqrt(sum_var) : 0;
  if (config.kind != Mechanism::cq) out.mse_bound = sum_bound / m;
  return out;
}

}  // namespace corbin::fl
