#include "corbin/fl/mechanism.hpp"

#include <algorithm>
#include <cmath>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/baselines.hpp"
#include "corbin/quantizer/cq.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::fl {
namespace {

std::string label(std::uint64_t round, const std::string& what) {
  return "round " + std::to_string(round) + " " + what;
}

/// Uniform doubles in (0, 1) from the ChaCha20 words of (key, stream), chunk 0.
std::vector<double> uniforms(const Key& key, std::uint32_t stream, std::size_t count) {
  std::vector<std::uint64_t> words(count);
  keystream(key, stream, 0, reinterpret_cast<std::uint8_t*>(words.data()), count * 8);
  std::vector<double> u(count);
  for (std::size_t i = 0; i < count; ++i) u[i] = unit_uniform(words[i]);
  return u;
}

}  // namespace

Geometry layer_geometry(const float* g, std::size_t n) {
  const auto [lo, hi] = std::minmax_element(g, g + n);
  const double c = (static_cast<double>(*hi) + *lo) / 2;
  double r = (static_cast<double>(*hi) - *lo) / 2;
  if (!(r > 0)) r = std::max(std::abs(c) / 1000, 1e-6);
  return {c, r};
}


double noise_scale(const MechanismConfig& config, const Geometry& g) {
  if (config.kind != Mechanism::gaussian && config.kind != Mechanism::laplace)
    throw invalid_argument("mechanism", to_string(config.kind), "gaussian or laplace for a noise scale");
  // ε as a rational for the calibration: given, or the lower end of its enclosure (a smaller ε
  // asks for more noise, so the calibration never understates the privacy loss).
  PrecisionScope scope(128);
  const Rational eps = config.budget.kind == Budget::Kind::eps ? config.budget.value
                                                               : to_rational(lower_of(config.budget.eps_interval()));
  const Rational sensitivity = to_rational(2 * g.r);
  if (config.kind == Mechanism::gaussian) return agm_sigma_double(eps, config.delta, sensitivity);
  // b = Δ/ε rounded up.
  const Rational b = laplace_scale(eps, sensitivity);
  const double nearest = to_double(b);
  return to_rational(nearest) >= b ? nearest : std::nextafter(nearest, HUGE_VAL);
}

Mechanism parse_mechanism(const std::string& text) {
  if (text == "vanilla") return Mechanism::vanilla;
  if (text == "ldp") return Mechanism::ldp;
  if (text == "corbin") return Mechanism::corbin;
  if (text == "augcorbin") return Mechanism::augcorbin;
  if (text == "gaussian") return Mechanism::gaussian;
  if (text == "laplace") return Mechanism::laplace;
  if (text == "cq") return Mechanism::cq;
  throw invalid_argument("mechanism", quote(text), "one of vanilla, ldp, corbin, augcorbin, gaussian, laplace, cq");
}

const char* to_string(Mechanism m) {
  switch (m) {
    case Mechanism::vanilla: return "vanilla";
    case Mechanism::ldp: return "ldp";
    case Mechanism::corbin: return "corbin";
    case Mechanism::augcorbin: return "augcorbin";
    case Mechanism::gaussian: return "gaussian";
    case Mechanism::laplace: return "laplace";
    case Mechanism::cq: return "cq";
  }
  return "?";
}

void check_mechanism(const MechanismConfig& c) {
  if (c.gamma < 0 || c.gamma > 1) throw invalid_argument("gamma", to_string(c.gamma), "in [0, 1]");
  if (c.bits > CorbinqPairSampler::kMaxBits)
    throw invalid_argument("bits", std::to_string(c.bits), "at most 32 in the federated run");
  if (c.dropout < 0 || c.dropout >= 1) throw invalid_argument("dropout", to_string(c.dropout), "in [0, 1)");
  if (c.delta <= 0 || c.delta >= 1) throw invalid_argument("delta", to_string(c.delta), "in (0, 1)");
}

std::uint64_t model_bytes(const std::vector<Layer>& layers) {
  std::uint64_t m = 0;
  for (const Layer& layer : layers) m += layer.size;
  return 4 * m + 8 * layers.size() + 4;
}

std::uint64_t update_bytes(Mechanism mechanism, const std::vector<Layer>& layers) {
  const bool one_bit = mechanism == Mechanism::ldp || mechanism == Mechanism::corbin ||
                       mechanism == Mechanism::augcorbin || mechanism == Mechanism::cq;
  std::uint64_t bytes = 0;
  for (const Layer& layer : layers) bytes += one_bit ? (layer.size + 7) / 8 : 4 * layer.size;
  return bytes;
}

RoundPlan plan_round(std::size_t n, const std::vector<Layer>& layers, const MechanismConfig& config,
                     std::uint64_t round) {
  check_mechanism(config);
  if (n < 2) throw invalid_argument("clients", std::to_string(n), "at least 2");
  // Who survives this round: a client drops when its uniform falls below p.
  const auto drop_words = uniforms(derive_key(config.seed, label(round, "dropout")), 0, n);
  std::vector<bool> alive(n);
  for (std::size_t i = 0; i < n; ++i) alive[i] = !(to_rational(drop_words[i]) < config.dropout);
  // Roles from the server's random order.
  const bool correlated = config.kind == Mechanism::corbin || config.kind == Mechanism::augcorbin;
  const std::vector<std::size_t> order = permutation(n, derive_key(config.seed, label(round, "pairing")));
  std::size_t first_paired = n;
  if (correlated)
    first_paired = config.kind == Mechanism::augcorbin
                       ? floor_of(Rational(config.gamma * Rational(BigInt(n)))).convert_to<std::size_t>()
                       : 0;
  RoundPlan plan;
  std::vector<std::pair<std::size_t, std::size_t>> drawn_pairs;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    if (k < first_paired || (k + 1 == n && (n - first_paired) % 2 == 1)) {
      if (alive[i]) plan.alone.push_back(i);
    } else if ((k - first_paired) % 2 == 0) {
      const std::size_t j = order[k + 1];
      if (alive[i] && alive[j]) drawn_pairs.emplace_back(i, j);
      else if (alive[i]) plan.alone.push_back(i);  // the partner dropped: LDPQ
      else if (alive[j]) plan.alone.push_back(j);
    }
  }
  // The protocol: every client downloads the model; pairs set up their channels.
  Relay relay(n);
  const std::uint64_t broadcast = model_bytes(layers), update = update_bytes(config.kind, layers);
  for (std::size_t i = 0; i < n; ++i) relay.count_model_download(i, broadcast);
  plan.channels = establish_pairs(drawn_pairs, layers, config.bits, config.protocol, config.seed, round, relay);
  for (std::size_t i : plan.alone) relay.count_update_upload(i, update);
  for (const PairChannel& c : plan.channels) {
    relay.count_update_upload(c.leader, update);
    relay.count_update_upload(c.follower, update);
  }
  plan.traffic = relay.traffic();
  return plan;
}

std::vector<std::size_t> RoundPlan::summation_order() const {
  std::vector<std::size_t> order = alone;
  for (const PairChannel& c : channels) {
    order.push_back(c.leader);
    order.push_back(c.follower);
  }
  return order;
}

RoundResult RoundPlan::result_frame() const {
  RoundResult out;
  out.alone_clients = alone;
  for (const PairChannel& c : channels) out.pair_clients.emplace_back(c.leader, c.follower);
  out.traffic = traffic;
  return out;
}

Key round_secret(const MechanismConfig& config, std::uint64_t round, std::size_t client, const char* purpose) {
  return client_secret(config.protocol, config.seed, round, client, purpose);
}

RoundResult obfuscated_mean(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round) {
  for (std::size_t i = 0; i < clients.size(); ++i) {
    const std::vector<float>& w = clients[i];
    if (w.size() != global.size()) throw invalid_argument("clients", "of another size", "the global model's size");
    const auto nan = std::find_if(w.begin(), w.end(), [](float x) { return x != x; });
    if (nan != w.end())
      throw invalid_argument("w[" + std::to_string(i) + "][" + std::to_string(nan - w.begin()) + "]", "NaN",
                             "a number (a NaN weight cannot be obfuscated or averaged)");
  }
  const RoundPlan plan = plan_round(clients.size(), layers, config, round);
  const std::vector<std::size_t>& alone = plan.alone;
  const std::vector<PairChannel>& channels = plan.channels;
  RoundResult out = plan.result_frame();
  out.aggregate.assign(global.size(), 0.0f);
  out.clipped_mean.assign(global.size(), 0.0f);
  if (out.survivors() == 0) {
    out.aggregate = global;
    out.clipped_mean = global;
    return out;
  }
  const auto secret = [&](std::size_t client, const char* purpose) {
    return round_secret(config, round, client, purpose);
  };
  std::vector<double> sum(global.size(), 0.0), clipped_sum(global.size(), 0.0);
  std::vector<float> out1, out2;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
    const auto stream = static_cast<std::uint32_t>(l);
    const auto clip_weight = [&](float w) {
      return config.kind == Mechanism::vanilla ? w : clip(g, w);
    };
    const auto add = [&](const std::vector<float>& values, std::vector<double>& into) {
      for (std::size_t t = 0; t < layer.size; ++t) into[layer.offset + t] += values[t];
    };
    std::vector<float> clipped(layer.size);
    const auto clipped_of = [&](std::size_t i) {
      for (std::size_t t = 0; t < layer.size; ++t) clipped[t] = clip_weight(clients[i][layer.offset + t]);
      return clipped;
    };
    out1.resize(layer.size);
    out2.resize(layer.size);
    if (config.kind == Mechanism::vanilla) {
      for (std::size_t i : alone) {
        clipped_of(i);  // vanilla does not clip: these are the raw weights
        add(clipped, sum);
        add(clipped, clipped_sum);
      }
    } else if (config.kind == Mechanism::gaussian || config.kind == Mechanism::laplace) {
      // Per coordinate, sensitivity 2r, at the same ε (and δ for the Gaussian).
      const double scale = noise_scale(config, g);
      for (std::size_t i : alone) {
        const auto u = uniforms(secret(i, "noise"), stream, 2 * layer.size);
        clipped_of(i);
        for (std::size_t t = 0; t < layer.size; ++t) {
          const double noise = config.kind == Mechanism::gaussian ? gaussian_draw(u[2 * t], u[2 * t + 1])
                                                                  : laplace_draw(u[2 * t]);
          out1[t] = static_cast<float>(clipped[t] + scale * noise);
        }
        add(out1, sum);
        add(clipped, clipped_sum);
      }
    } else if (config.kind == Mechanism::cq) {
      // The survivors in rank order share coordinate t's shift (public randomness: CQ hides nothing).
      const std::size_t kk = alone.size();
      const auto shifts = cq_shifts(derive_key(config.seed, label(round, "cq shared shifts")), stream, layer.size, kk);
      const float low = static_cast<float>(g.c - g.r), high = static_cast<float>(g.c + g.r);
      for (std::size_t rank = 0; rank < kk; ++rank) {
        const std::size_t i = alone[rank];
        const auto v = uniforms(secret(i, "private coins"), stream, layer.size);
        clipped_of(i);
        for (std::size_t t = 0; t < layer.size; ++t) {
          out1[t] = cq_top((clipped[t] - (g.c - g.r)) / (2 * g.r), shifts[t], rank, kk, v[t]) ? high : low;
        }
        add(out1, sum);
        add(clipped, clipped_sum);
      }
    } else {
      const FixedPointLaw law(config.budget, to_rational(g.c), to_rational(g.r));
      for (std::size_t i : alone) {
        LdpqSampler(law, secret(i, "private coins"), stream)
            .sample(clients[i].data() + layer.offset, out1.data(), layer.size);
        add(out1, sum);
        add(clipped_of(i), clipped_sum);
      }
      for (const PairChannel& c : channels) {
        const std::size_t a = c.leader, b = c.follower;
        const CorbinqPairSampler sampler(law, config.bits, c.z_key, secret(a, "private coins"),
                                         secret(b, "private coins"), stream);
        if (config.protocol.transport == ZTransport::derived)
          sampler.sample(clients[a].data() + layer.offset, clients[b].data() + layer.offset, out1.data(),
                         out2.data(), layer.size);
        else
          sampler.sample_with_z(c.z[l].data(), clients[a].data() + layer.offset, clients[b].data() + layer.offset,
                                out1.data(), out2.data(), layer.size);
        add(out1, sum);
        add(out2, sum);
        add(clipped_of(a), clipped_sum);
        add(clipped_of(b), clipped_sum);
      }
    }
  }
  double squared = 0;
  const double k = static_cast<double>(out.survivors());
  for (std::size_t t = 0; t < global.size(); ++t) {
    out.aggregate[t] = static_cast<float>(sum[t] / k);
    out.clipped_mean[t] = static_cast<float>(clipped_sum[t] / k);
    const double e = sum[t] / k - clipped_sum[t] / k;
    squared += e * e;
  }
  out.mse_empirical = squared / static_cast<double>(global.size());
  return out;
}

}  // namespace corbin::fl
