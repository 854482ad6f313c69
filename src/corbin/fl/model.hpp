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
/// Dropout, where a model has it, takes its mask from the caller (`keep`: [batch, units] of 0 or
/// 2, see dropout_keep; undefined in evaluation), so that one-at-a-time and batched training,
/// on the CPU or a GPU, drop the same units.
struct ModelImpl : torch::nn::Module {
  virtual torch::Tensor forward(torch::Tensor x, const torch::Tensor& keep) = 0;
  virtual std::int64_t dropout_units() const = 0;  ///< units the mask covers (0: no dropout)
};
using Model = std::shared_ptr<ModelImpl>;

/// The authors' MNIST model: conv 3×3 1→32 pad 1, ReLU, max-pool 2; conv 3×3 32→64 pad 1, ReLU,
/// max-pool 2; linear 3136→128, ReLU, dropout 0.5; linear 128→10 (421 642 parameters at 28×28).
struct MnistCnn : ModelImpl {
  explicit MnistCnn(std::int64_t side = 28);
  torch::Tensor forward(torch::Tensor x, const torch::Tensor& keep = {}) override;
  std::int64_t dropout_units() const override { return 128; }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

/// McMahan et al.'s "2NN": linear side²→200, ReLU, linear 200→200, ReLU, linear 200→10
/// (199 210 parameters at 28×28): a smaller model for quick runs.
struct Mlp : ModelImpl {
  explicit Mlp(std::int64_t side = 28);
  torch::Tensor forward(torch::Tensor x, const torch::Tensor& keep = {}) override;
  std::int64_t dropout_units() const override { return 0; }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};

/// The smallest image side a model takes: 4 for "cnn" (two 2×2 poolings must leave a pixel for
/// fc1), 1 for "mlp"; raises invalid_argument(model) for another name.
std::int64_t smallest_side(const std::string& name);

/// "cnn" (the authors' model, the default) or "mlp"; raises invalid_argument(model), or
/// invalid_argument(side) below smallest_side(name).
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

/// How pixels are normalised after scaling to [0, 1]: (x − mean)/sd. corbin's default is
/// mean = sd = 1/2 (pixels in [−1, 1]); the authors' code uses MNIST's statistics (0.1307, 0.3081)
/// for every MNIST-format set, Fashion-MNIST included.
struct Normalisation {
  float mean = 0.5f, sd = 0.5f;
};
/// "half" (the default) or "mnist"; raises invalid_argument(normalisation).
Normalisation parse_normalisation(const std::string& name);

/// Images (scaled to [0, 1] and normalised) and labels for `indices` of the pooled train + test set.
struct Batch {
  torch::Tensor x, y;
};
Batch gather(const MnistFiles& files, const std::vector<std::size_t>& indices, torch::Device device,
             const Normalisation& normalisation = {});

/// The dropout masks of a local epoch seeded by `seed`: row p, for the p-th example of the
/// epoch's order, keeps unit u (value 2 = 1/(1 − 1/2), the inverted-dropout scale of p = 1/2)
/// iff bit u mod 8 of byte u/8 of the row is set, the rows' bytes being the ChaCha20 stream of
/// derive_key(seed, "local dropout"). Counter-based, so the same on every device and in every
/// order of training. [examples, units] float32 on `device`.
torch::Tensor dropout_keep(std::uint64_t seed, std::int64_t examples, std::int64_t units, torch::Device device);
/// The packed bytes behind dropout_keep ([examples × ⌈units/8⌉]), and their unpacking
/// ([..., ⌈units/8⌉] uint8 → [..., units] float32 of 0 and 2, where the bytes are).
std::vector<std::uint8_t> dropout_bytes(std::uint64_t seed, std::int64_t examples, std::int64_t units);
torch::Tensor unpack_keep(const torch::Tensor& bytes, std::int64_t units);

/// The order of a local epoch seeded by `seed`: a uniform permutation of the examples.
std::vector<std::int64_t> epoch_order(std::uint64_t seed, std::size_t examples);

/// Local training's settings (the authors' code: batch 64, Adam lr 1e-3, weight decay 3e-3).
struct LocalTraining {
  std::int64_t batch = 64;
  double learning_rate = 1e-3, weight_decay = 3e-3;
};

/// One local epoch: the examples in epoch_order(seed), in batches, with dropout_keep(seed)'s
/// masks, and a fresh Adam, so that a round can be recomputed on its own (a resumed run).
void train_epoch(ModelImpl& net, const Batch& data, std::uint64_t seed, torch::Device device,
                 const LocalTraining& settings = {});

struct Evaluation {
  double accuracy = 0, loss = 0;
};
Evaluation evaluate(ModelImpl& net, const Batch& data);

}  // namespace corbin::fl
