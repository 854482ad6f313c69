#include "corbin/fl/mechanism.hpp"

#include <algorithm>
#include <cmath>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::fl {

std::string round_label(std::uint64_t round, const std::string& what) {
  return "round " + std::to_string(round) + " " + what;
}

std::vector<double> uniforms(const Key& key, std::uint32_t stream, std::size_t count) {
  std::vector<std::uint64_t> words(count);
  keystream(key, stream, 0, reinterpret_cast<std::uint8_t*>(words.data()), count * 8);
  std::vector<double> u(count);
  for (std::size_t i = 0; i < count; ++i) u[i] = unit_uniform(words[i]);
  return u;
}

Geometry layer_geometry(const float* g, std::size_t n) {
  const auto [lo, hi] = std::minmax_element(g, g + n);
  const double c = (static_cast<double>(*hi) + *lo) / 2;
  double r = (static_cast<double>(*hi) - *lo) / 2;
  if (!(r > 0)) r = std::max(std::abs(c) / 1000, 1e-6);
  return {c, r};
}


const Mechanism& parse_mechanism(const std::string& text) { return Registry::global().find(text); }

void check_mechanism(const MechanismConfig& c) {
  check_gamma(c.gamma);
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

std::uint64_t update_bytes(const Mechanism& mechanism, const std::vector<Layer>& layers) {
  std::uint64_t bytes = 0;
  const std::uint64_t bits = mechanism.bits_per_coordinate();
  for (const Layer& layer : layers) bytes += (bits * layer.size + 7) / 8;
  return bytes;
}

RoundRoles draw_roles(std::size_t n, const MechanismConfig& config, std::uint64_t round) {
  check_mechanism(config);
  if (n < 2) throw invalid_argument("clients", std::to_string(n), "at least 2");
  // Who survives this round: a client drops when its uniform falls below p.
  const auto drop_words = uniforms(derive_key(config.seed, round_label(round, "dropout")), 0, n);
  std::vector<bool> alive(n);
  for (std::size_t i = 0; i < n; ++i) alive[i] = !(to_rational(drop_words[i]) < config.dropout);
  // Roles from the server's random order.
  const std::vector<std::size_t> order = permutation(n, derive_key(config.seed, round_label(round, "pairing")));
  const std::size_t first_paired = lone_before_pairs(config.mechanism->pairing(), config.gamma, n);
  RoundRoles roles;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    if (k < first_paired || (k + 1 == n && (n - first_paired) % 2 == 1)) {
      if (alive[i]) roles.alone.push_back(i);
    } else if ((k - first_paired) % 2 == 0) {
      const std::size_t j = order[k + 1];
      if (alive[i] && alive[j]) roles.pairs.emplace_back(i, j);
      else if (alive[i]) roles.alone.push_back(i);  // the partner dropped: LDPQ
      else if (alive[j]) roles.alone.push_back(j);
    }
  }
  return roles;
}

RoundPlan plan_round(std::size_t n, const std::vector<Layer>& layers, const MechanismConfig& config,
                     std::uint64_t round) {
  const RoundRoles roles = draw_roles(n, config, round);
  Relay relay(n);
  std::vector<PairChannel> channels =
      establish_pairs(roles.pairs, layers, config.bits, config.protocol, config.seed, round, relay);
  return complete_plan(roles, std::move(channels), layers, config, relay);
}

RoundPlan complete_plan(const RoundRoles& roles, std::vector<PairChannel> channels, const std::vector<Layer>& layers,
                        const MechanismConfig& config, Relay& relay) {
  RoundPlan plan;
  plan.alone = roles.alone;
  plan.channels = std::move(channels);
  // Every client downloads the model; every survivor uploads its update.
  const std::uint64_t broadcast = model_bytes(layers), update = update_bytes(*config.mechanism, layers);
  for (std::size_t i = 0; i < relay.traffic().size(); ++i) relay.count_model_download(i, broadcast);
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

std::vector<std::vector<float>> obfuscate_held(const RoundPlan& plan, const std::vector<const float*>& weights,
                                               const std::vector<float>& global, const std::vector<Layer>& layers,
                                               const MechanismConfig& config, std::uint64_t round) {
  const Mechanism& mechanism = *config.mechanism;
  std::vector<std::vector<float>> sent(weights.size());
  const auto held = [&](std::size_t i) { return weights[i] != nullptr; };
  for (std::size_t i : plan.alone)
    if (held(i)) sent[i].resize(global.size());
  for (const PairChannel& c : plan.channels)
    for (std::size_t i : {c.leader, c.follower})
      if (held(i)) sent[i].resize(global.size());
  // The lone clients passed to the sampler: those held here, or all of them where the mechanism
  // couples them (CQ's shared shifts depend on each client's place among all), the others given
  // zero weights and their outputs dropped.
  const bool all_alone = mechanism.couples_lone_clients();
  std::vector<std::size_t> alone;
  for (std::size_t i : plan.alone)
    if (all_alone || held(i)) alone.push_back(i);
  std::vector<float> zeros, scratch, scratch_partner;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
    const LayerRound lr{config, g, static_cast<std::uint32_t>(l), round, layer.size};
    const auto sampler = mechanism.sampler(lr);
    zeros.assign(layer.size, 0.0f);
    scratch.resize(layer.size);
    std::vector<std::vector<float>> dropped(alone.size());
    std::vector<const float*> inputs(alone.size());
    std::vector<float*> outputs(alone.size());
    for (std::size_t k = 0; k < alone.size(); ++k) {
      const std::size_t i = alone[k];
      if (held(i)) {
        inputs[k] = weights[i] + layer.offset;
        outputs[k] = sent[i].data() + layer.offset;
      } else {
        dropped[k].resize(layer.size);
        inputs[k] = zeros.data();
        outputs[k] = dropped[k].data();
      }
    }
    sampler->alone(alone, inputs, outputs);
    for (const PairChannel& c : plan.channels) {
      const bool lead = held(c.leader), follow = held(c.follower);
      if (!lead && !follow) continue;
      // An end held alone stands in for its partner with its own weights: its output does not
      // depend on the partner's (CorBinQ's Q1 and Q2 each read their own w, Z and coins).
      const float* w_lead = lead ? weights[c.leader] + layer.offset : weights[c.follower] + layer.offset;
      const float* w_follow = follow ? weights[c.follower] + layer.offset : weights[c.leader] + layer.offset;
      float* out_lead = lead ? sent[c.leader].data() + layer.offset : scratch.data();
      float* out_follow = follow ? sent[c.follower].data() + layer.offset : scratch.data();
      sampler->pair(c, w_lead, w_follow, out_lead, out_follow);
    }
  }
  return sent;
}

RoundResult aggregate_round(const RoundPlan& plan, const std::vector<std::vector<float>>& sent,
                            const std::vector<const float*>& weights, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config) {
  RoundResult out = plan.result_frame();
  if (out.survivors() == 0) {
    out.aggregate = global;
    out.clipped_mean = global;
    return out;
  }
  const Mechanism& mechanism = *config.mechanism;
  std::vector<double> sum(global.size(), 0.0), clipped_sum(global.size(), 0.0);
  const std::vector<std::size_t> order = plan.summation_order();
  for (const Layer& layer : layers) {
    const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
    for (std::size_t i : order) {
      const float* w = weights[i] + layer.offset;
      const float* s = sent[i].data() + layer.offset;
      for (std::size_t t = 0; t < layer.size; ++t) {
        sum[layer.offset + t] += s[t];
        clipped_sum[layer.offset + t] += mechanism.clips() ? clip(g, w[t]) : w[t];
      }
    }
  }
  out.aggregate.assign(global.size(), 0.0f);
  out.clipped_mean.assign(global.size(), 0.0f);
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

void check_weights(const std::vector<float>& w, std::size_t client, std::size_t parameters) {
  if (w.size() != parameters) throw invalid_argument("clients", "of another size", "the global model's size");
  const auto nan = std::find_if(w.begin(), w.end(), [](float x) { return x != x; });
  if (nan != w.end())
    throw invalid_argument("w[" + std::to_string(client) + "][" + std::to_string(nan - w.begin()) + "]", "NaN",
                           "a number (a NaN weight cannot be obfuscated or averaged)");
}

RoundResult obfuscated_mean(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round) {
  std::vector<const float*> weights(clients.size());
  for (std::size_t i = 0; i < clients.size(); ++i) {
    check_weights(clients[i], i, global.size());
    weights[i] = clients[i].data();
  }
  const RoundPlan plan = plan_round(clients.size(), layers, config, round);
  const auto sent = obfuscate_held(plan, weights, global, layers, config, round);
  return aggregate_round(plan, sent, weights, global, layers, config);
}

}  // namespace corbin::fl
