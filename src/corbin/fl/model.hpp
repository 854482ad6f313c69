#pragma once
// The federated run's libtorch side (built with CORBIN_WITH_TORCH): the authors' MNIST model,
// flat parameter vectors with per-tensor layers for the mechanism, local training (one epoch,
// batch 64, Adam lr 1e-3, weight decay 3e-3, fresh each round, as the authors' code) and
// evaluation.

#include <torch/torch.h>

#include <vector>

#include "corbin/fl/idx.hpp"
#include "corbin/fl/mechanism.hpp"

namespace corbin::fl {

/// A model the federated run can train: any module with a forward on [batch, 1, side, side].
struct ModelImpl : torch::nn::Module {
  virtual torch::Tensor forward(torch::Tensor x) = 0;
};
using Model = std::shared_ptr<ModelImpl>;

/// The authors' MNIST model: conv 3×3 1→32 pad 1, ReLU, max-pool 2; conv 3×3 32→64 pad 1, ReLU,
/// max-pool 2; linear 3136→128, ReLU, dropout 0.5; linear 128→10 (421 642 parameters at 28×28).
struct MnistCnn : ModelImpl {
  explicit MnistCnn(std::int64_t side = 28);
  torch::Tensor forward(torch::Tensor x) override;
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::Dropout dropout{nullptr};
};

/// McMahan et al.'s "2NN": linear side²→200, ReLU, linear 200→200, ReLU, linear 200→10
/// (199 210 parameters at 28×28): a smaller model for quick runs.
struct Mlp : ModelImpl {
  explicit Mlp(std::int64_t side = 28);
  torch::Tensor forward(torch::Tensor x) override;
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};

/// "cnn" (the authors' model, the default) or "mlp"; raises invalid_argument(--model).
Model make_model(const std::string& name, std::int64_t side = 28);

/// Keeps freed heap memory in the process. libtorch frees every activation after each step;
/// glibc hands blocks that large back to the kernel (mmap/munmap, heap trimming), so every step
/// page-faults its ~10 MB of activations in again. Measured on the authors' model, batch 64, 2
/// threads: 52 ms a step before, 15.6 ms after. Call once, before training.
void keep_freed_memory();

std::vector<float> flatten(ModelImpl& net);
void assign(ModelImpl& net, const std::vector<float>& flat);
std::vector<Layer> layers_of(ModelImpl& net);  ///< one layer per parameter tensor
std::size_t parameter_count(ModelImpl& net);

/// Images (scaled to [0, 1] and normalised with mean 0.5, sd 0.5) and labels for `indices`
/// of the pooled train + test set.
struct Batch {
  torch::Tensor x, y;
};
Batch gather(const MnistFiles& files, const std::vector<std::size_t>& indices, torch::Device device);

/// One local epoch; the shuffle order and libtorch's generator (dropout) are seeded from `seed`,
/// so that a round can be recomputed on its own (--resume).
void train_epoch(ModelImpl& net, const Batch& data, std::uint64_t seed, torch::Device device);

struct Evaluation {
  double accuracy = 0, loss = 0;
};
Evaluation evaluate(ModelImpl& net, const Batch& data);

}  // namespace corbin::fl
