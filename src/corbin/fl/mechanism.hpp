#pragma once
// One round of a privacy mechanism over the clients' flat parameter vectors (Alg. 3's
// obfuscation and aggregation; no libtorch here). Per layer, c and r come from the current
// global model (c = (max + min)/2, r = (max − min)/2, as the paper and the reference code do),
// every client's weights are clipped to [c − r, c + r] and obfuscated, and the server averages.
//
// Pairs: the server draws a random pairing of the clients each round; under AugCorBin-FL the
// first ⌊γ n⌋ clients of the shuffled order quantize alone (the reference code's rule), and an
// odd one out too. Each pair then sets up its channel (protocol.hpp: X25519 agreement relayed by
// the server, leader election, Z sent encrypted or derived from the agreed key), and every byte
// is counted. Dropout: a client drops with probability p; a survivor whose partner dropped
// quantizes with LDPQ (as the paper argues). What each client sends is its mechanism's own
// business (registry.hpp, fl/mechanisms/); this file draws the round's roles and sums.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corbin/fl/geometry.hpp"
#include "corbin/fl/layer.hpp"
#include "corbin/fl/protocol.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/quantizer/budget.hpp"

namespace corbin::fl {

/// The registered mechanism of that name; raises invalid_argument("mechanism") naming the known ones.
const Mechanism& parse_mechanism(const std::string& text);
using corbin::to_string;  // Rational -> "p/q"

struct MechanismConfig {
  const Mechanism* mechanism = &Registry::global().find("corbin");
  Budget budget = Budget::make(Budget::Kind::exp_eps, 3);
  unsigned bits = 5;
  Rational gamma{1, 2};      ///< AugCorBin-FL's LDPQ fraction
  Rational delta{1, 100000}; ///< Gaussian's δ
  Rational dropout{0};       ///< per-round dropout probability
  std::uint64_t seed = 0;
  ProtocolConfig protocol;   ///< how pairs agree on Z, where secrets come from
};

/// Raises invalid_argument naming gamma (outside [0, 1]), bits (> 32), dropout (outside [0, 1)),
/// delta (outside (0, 1)).
void check_mechanism(const MechanismConfig& c);

/// c and r of a layer from the global model: c = (max + min)/2, r = (max − min)/2; a constant
/// layer (r = 0, e.g. zero-initialised biases) gets r = max(|c|/1000, 1e-6) so that the
/// quantizer is defined.
Geometry layer_geometry(const float* global, std::size_t n);

/// Uniform doubles in (0, 1) from the ChaCha20 words of (key, stream), chunk 0.
std::vector<double> uniforms(const Key& key, std::uint32_t stream, std::size_t count);
/// The label a round's public randomness is derived under ("round 3 pairing").
std::string round_label(std::uint64_t round, const std::string& what);

struct RoundResult {
  std::vector<float> aggregate;      ///< mean of the survivors' obfuscated vectors
  std::vector<float> clipped_mean;   ///< mean of the survivors' clipped true vectors
  std::vector<std::size_t> alone_clients;                      ///< who quantized alone
  std::vector<std::pair<std::size_t, std::size_t>> pair_clients;  ///< (leader, follower), as elected
  std::vector<Traffic> traffic;      ///< per client (dropped clients received the model only)
  double mse_empirical = 0;          ///< mean over coordinates of (aggregate − clipped_mean)²
  std::size_t alone() const { return alone_clients.size(); }
  std::size_t pairs() const { return pair_clients.size(); }
  std::size_t survivors() const { return alone() + 2 * pairs(); }
};

/// The part of a round that does not touch the clients' weights, shared by the CPU round
/// (obfuscated_mean) and the batched round on a device (device_round.hpp): who dropped, who
/// quantizes alone, which pairs the protocol set up (their keys and Z), and every byte counted.
struct RoundPlan {
  std::vector<std::size_t> alone;     ///< survivors that quantize alone (LDPQ, noise, CQ, vanilla)
  std::vector<PairChannel> channels;  ///< pairs as elected (CorBin-FL, AugCorBin-FL)
  std::vector<Traffic> traffic;       ///< per client
  /// The survivors in the order the aggregate sums them: alone, then each pair's leader and
  /// follower (the CPU and GPU rounds add in this order, so their sums agree bit for bit).
  std::vector<std::size_t> summation_order() const;
  /// A RoundResult with the roles and traffic filled in and no vectors yet.
  RoundResult result_frame() const;
};

/// Who survives, who quantizes alone and which pairs were drawn: public randomness from (seed,
/// round), so every process of a distributed run draws the same.
struct RoundRoles {
  std::vector<std::size_t> alone;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  ///< as drawn (the election orders them)
};
RoundRoles draw_roles(std::size_t clients, const MechanismConfig& config, std::uint64_t round);

/// Draws the roles and runs the protocol for a round of `clients` clients (Alg. 3, lines 1–17).
RoundPlan plan_round(std::size_t clients, const std::vector<Layer>& layers, const MechanismConfig& config,
                     std::uint64_t round);

/// The plan once the pairs' channels are set up: `relay` has counted their messages; the model's
/// download by every client and each survivor's upload are counted here.
RoundPlan complete_plan(const RoundRoles& roles, std::vector<PairChannel> channels, const std::vector<Layer>& layers,
                        const MechanismConfig& config, Relay& relay);

/// The obfuscated vectors of the survivors whose weights this process holds (weights[i] non-null;
/// a pair's channel as its held end knows it), by client (empty for the others). Each client's
/// output depends on its own weights, its secrets and its pair's Z only, so a pair split between
/// processes gives each end what the pair computed together gives it.
std::vector<std::vector<float>> obfuscate_held(const RoundPlan& plan, const std::vector<const float*>& weights,
                                               const std::vector<float>& global, const std::vector<Layer>& layers,
                                               const MechanismConfig& config, std::uint64_t round);

/// The round's result from every survivor's obfuscated vector and every client's weights (by
/// client): sums in summation_order, in double, so that any split of the work gives the same bits.
RoundResult aggregate_round(const RoundPlan& plan, const std::vector<std::vector<float>>& sent,
                            const std::vector<const float*>& weights, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config);

/// A client's secret key for a purpose ("private coins", "noise") in a round.
Key round_secret(const MechanismConfig& config, std::uint64_t round, std::size_t client, const char* purpose);

/// Bytes of the server's broadcast: the float32 model, c and r per layer (float32), the
/// partner's index (4 bytes).
std::uint64_t model_bytes(const std::vector<Layer>& layers);

/// Bytes of one obfuscated update: a bit per coordinate for the one-bit quantizers (the server
/// knows c, r and ε, so the signs say everything), a float32 per coordinate otherwise.
std::uint64_t update_bytes(const Mechanism& mechanism, const std::vector<Layer>& layers);

/// Client `client`'s trained weights as a round takes them: the global model's size, no NaN;
/// raises invalid_argument naming clients, or w[client][t] at the first NaN.
void check_weights(const std::vector<float>& w, std::size_t client, std::size_t parameters);

RoundResult obfuscated_mean(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round);

}  // namespace corbin::fl
