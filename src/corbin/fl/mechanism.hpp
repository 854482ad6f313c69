#pragma once
// One round of a privacy mechanism over the clients' flat parameter vectors (Alg. 3's
// obfuscation and aggregation; no libtorch here). Per layer, c and r come from the current
// global model (c = (max + min)/2, r = (max − min)/2, as the paper and the reference code do),
// every client's weights are clipped to [c − r, c + r] and obfuscated, and the server averages.
//
// Pairs: the server draws a random pairing of the clients each round; under AugCorBin-FL the
// first ⌊γ n⌋ clients of the shuffled order quantize alone (the reference code's rule), and an
// odd one out too. A pair's shared key is derived here from the run's seed; the X25519
// agreement of Alg. 3 replaces it in the protocol layer. Dropout: a client drops with
// probability p; a survivor whose partner dropped quantizes with LDPQ (as the paper argues).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corbin/quantizer/budget.hpp"

namespace corbin::fl {

enum class Mechanism { vanilla, ldp, corbin, augcorbin, gaussian, laplace };
Mechanism parse_mechanism(const std::string& text);  ///< raises invalid_argument(--mechanism)
const char* to_string(Mechanism m);
using corbin::to_string;  // Rational -> "p/q" beside the Mechanism overload

struct MechanismConfig {
  Mechanism kind = Mechanism::corbin;
  Budget budget = Budget::make(Budget::Kind::exp_eps, 3);
  unsigned bits = 5;
  Rational gamma{1, 2};      ///< AugCorBin-FL's LDPQ fraction
  Rational delta{1, 100000}; ///< Gaussian's δ
  Rational dropout{0};       ///< per-round dropout probability
  std::uint64_t seed = 0;
};

/// Raises invalid_argument naming --gamma (outside [0, 1]), --bits (> 32), --dropout
/// (outside [0, 1)), --delta (outside (0, 1)).
void check_mechanism(const MechanismConfig& c);

struct Layer {
  std::size_t offset = 0, size = 0;
};

/// c and r of a layer from the global model: c = (max + min)/2, r = (max − min)/2; a constant
/// layer (r = 0, e.g. zero-initialised biases) gets r = max(|c|/1000, 1e-6) so that the
/// quantizer is defined.
struct Geometry {
  double c, r;
};
Geometry layer_geometry(const float* global, std::size_t n);

/// w clipped to [c − r, c + r] (the paper's footnote), as the float a client holds.
float clip(const Geometry& g, float w);

/// The per-coordinate noise of the Gaussian (σ, analytic, at δ) or Laplace (scale b) baseline
/// for a layer, calibrated at the PLDP ε with sensitivity 2r. Raises invalid_argument for the
/// other mechanisms.
double noise_scale(const MechanismConfig& config, const Geometry& g);

struct RoundResult {
  std::vector<float> aggregate;      ///< mean of the survivors' obfuscated vectors
  std::vector<float> clipped_mean;   ///< mean of the survivors' clipped true vectors
  std::vector<std::size_t> alone_clients;                      ///< who quantized alone
  std::vector<std::pair<std::size_t, std::size_t>> pair_clients;  ///< (leader, follower)
  double mse_empirical = 0;          ///< mean over coordinates of (aggregate − clipped_mean)²
  std::size_t alone() const { return alone_clients.size(); }
  std::size_t pairs() const { return pair_clients.size(); }
  std::size_t survivors() const { return alone() + 2 * pairs(); }
};

RoundResult obfuscated_mean(const std::vector<std::vector<float>>& clients, const std::vector<float>& global,
                            const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round);

}  // namespace corbin::fl
