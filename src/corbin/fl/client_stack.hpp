#pragma once
// All clients of a round trained at once: every parameter tensor of the model is stacked along
// a leading client axis, convolutions run grouped (one group per client) and linear layers as
// batched matrix products, so one step of the stack is one step of every client and a round
// keeps a GPU busy. Each client keeps what it has when trained alone (model.hpp's train_epoch):
// its own data order and dropout masks (from its own seed), its own start (the global model)
// and its own Adam state (Adam is elementwise, so one Adam over the stacked tensors is n
// independent ones). The loss is the sum over clients of each client's mean, whose gradient
// with respect to a client's parameters is that client's own gradient. What differs from
// training one at a time is only the order of floating-point sums inside the kernels; the tests
// hold the two to a stated tolerance.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "corbin/fl/model.hpp"

namespace corbin::fl {

/// The clients' local data stacked: x [clients, examples, 1, side, side], y [clients, examples].
struct StackedShards {
  torch::Tensor x, y;
};

/// Raises invalid_argument("client shards") unless the shards are non-empty and equally sized.
StackedShards stack_shards(const std::vector<Batch>& shards);

/// How the stack computes its convolutions: as grouped convolutions (cuDNN's, one group per
/// client), or unfolded into columns and multiplied per client as one batched matrix product
/// (more memory traffic, but the GPU's matrix units instead of grouped-convolution kernels).
/// The two compute the same function; fl_bench times both.
enum class StackedConvolution { grouped, gemm };
/// "grouped" or "gemm"; raises invalid_argument(convolution).
StackedConvolution parse_stacked_convolution(const std::string& name);

class ClientStack {
 public:
  /// `model` as make_model names it ("cnn" or "mlp"); parameters of `dtype` on `device`.
  ClientStack(const std::string& model, std::int64_t side, std::int64_t clients, torch::Device device,
              torch::ScalarType dtype = torch::kFloat, StackedConvolution convolution = StackedConvolution::grouped);

  std::int64_t clients() const { return clients_; }

  /// Every client starts from `global` (flatten()'s layout).
  void load(const std::vector<float>& global);

  /// One local epoch for every client, client i as train_epoch(…, seeds[i], …) would run it.
  void train_epoch(const StackedShards& data, const std::vector<std::uint64_t>& seeds,
                   const LocalTraining& settings = {});

  /// [clients, parameters]: row i is client i's weights in flatten()'s layout.
  torch::Tensor rows() const;

 private:
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& keep) const;
  torch::Tensor forward_cnn(const torch::Tensor& x, const torch::Tensor& keep) const;
  torch::Tensor forward_mlp(const torch::Tensor& x) const;

  /// A 3×3, padding-1 convolution of each client's channels of x ([batch, clients·in, h, w]) with
  /// its own weight ([clients, out, in, 3, 3]) and bias ([clients, out]).
  torch::Tensor convolve(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) const;

  std::string model_;
  StackedConvolution convolution_;
  std::int64_t clients_, side_, dropout_units_;
  std::vector<torch::Tensor> params_;  ///< the model's parameters in order, each [clients, …]
};

}  // namespace corbin::fl
