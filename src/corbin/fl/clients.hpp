#pragma once
// The clients' side of a round on this machine: local training from the global model, then the
// round's mechanism over the trained weights. Two ways, with the same results up to the
// device's floating point:
//   - one client at a time through one model (the CPU default, and the only way for unequal
//     shards, as a Dirichlet split gives);
//   - all clients at once as one stack (client_stack.hpp; equal shards; the default on a GPU),
//     whose mechanism runs where its weights are (device_round.hpp).

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "corbin/fl/client_stack.hpp"
#include "corbin/fl/live_check.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/model.hpp"

namespace corbin::fl {

class Clients {
 public:
  virtual ~Clients() = default;
  virtual std::size_t count() const = 0;
  /// Client i trains one local epoch from `global` with seeds[i]. Returns once the device's work
  /// is done, so that a host clock measures it.
  virtual void train(const std::vector<float>& global, const std::vector<std::uint64_t>& seeds) = 0;
  /// The round's mechanism over the trained weights. With `sampled`, its clients' weights at
  /// sampled->coordinates are kept too (the live check's).
  virtual RoundResult obfuscate(const std::vector<float>& global, const std::vector<Layer>& layers,
                                const MechanismConfig& mechanism, std::uint64_t round, SampledWeights* sampled) = 0;
  /// The last round's trained weights, per client (a distributed round obfuscates them itself).
  virtual std::vector<std::vector<float>> trained() const = 0;
};

/// One at a time through `net` (the server's model: it is reloaded with the global model before
/// each client), client i on shards[i].
std::unique_ptr<Clients> clients_one_at_a_time(Model net, std::vector<Batch> shards, torch::Device device,
                                               LocalTraining local);

/// All at once: a stack of `model` ("cnn" or "mlp", side × side images) with one member per shard.
std::unique_ptr<Clients> clients_stacked(const std::string& model, std::int64_t side, StackedShards shards,
                                         std::int64_t count, torch::Device device, StackedConvolution convolution,
                                         LocalTraining local);

}  // namespace corbin::fl
