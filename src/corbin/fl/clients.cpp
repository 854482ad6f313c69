#include "corbin/fl/clients.hpp"

#include <optional>
#include <utility>

#include "corbin/fl/device_round.hpp"

namespace corbin::fl {
namespace {

class OneAtATime : public Clients {
 public:
  OneAtATime(Model net, std::vector<Batch> shards, torch::Device device, LocalTraining local)
      : net_(std::move(net)), shards_(std::move(shards)), device_(device), local_(local) {}

  std::size_t count() const override { return shards_.size(); }

  void train(const std::vector<float>& global, const std::vector<std::uint64_t>& seeds) override {
    trained_.clear();
    for (std::size_t i = 0; i < shards_.size(); ++i) {
      assign(*net_, global);
      train_epoch(*net_, shards_[i], seeds[i], device_, local_);
      trained_.push_back(flatten(*net_));
    }
  }

  RoundResult obfuscate(const std::vector<float>& global, const std::vector<Layer>& layers,
                        const MechanismConfig& mechanism, std::uint64_t round, SampledWeights* sampled) override {
    RoundResult r = obfuscated_mean(trained_, global, layers, mechanism, round);
    if (sampled) *sampled = sample_weights(trained_, std::move(sampled->coordinates));
    return r;
  }

  std::vector<std::vector<float>> trained() const override { return trained_; }

 private:
  Model net_;
  std::vector<Batch> shards_;
  torch::Device device_;
  LocalTraining local_;
  std::vector<std::vector<float>> trained_;  ///< the last round's weights, per client
};

class Stacked : public Clients {
 public:
  Stacked(const std::string& model, std::int64_t side, StackedShards shards, std::int64_t count,
          torch::Device device, StackedConvolution convolution, LocalTraining local)
      : stack_(model, side, count, device, torch::kFloat, convolution),
        shards_(std::move(shards)),
        device_(device),
        local_(local) {}

  std::size_t count() const override { return static_cast<std::size_t>(stack_.clients()); }

  void train(const std::vector<float>& global, const std::vector<std::uint64_t>& seeds) override {
    stack_.load(global);
    stack_.train_epoch(shards_, seeds, local_);
    if (device_.is_cuda()) torch::cuda::synchronize();
  }

  RoundResult obfuscate(const std::vector<float>& global, const std::vector<Layer>& layers,
                        const MechanismConfig& mechanism, std::uint64_t round, SampledWeights* sampled) override {
    const torch::Tensor rows = stack_.rows();
    RoundResult r = obfuscated_mean_rows(rows, global, layers, mechanism, round);
    if (sampled) {
      // Only the checked columns leave the device.
      const std::vector<std::int64_t> at(sampled->coordinates.begin(), sampled->coordinates.end());
      const torch::Tensor index = torch::tensor(at, torch::kLong).to(device_);
      const torch::Tensor picked = rows.index_select(1, index).cpu().contiguous();
      sampled->values.assign(picked.data_ptr<float>(), picked.data_ptr<float>() + picked.numel());
    }
    return r;
  }

  std::vector<std::vector<float>> trained() const override {
    const torch::Tensor rows = stack_.rows().cpu().contiguous();
    std::vector<std::vector<float>> out(static_cast<std::size_t>(rows.size(0)));
    for (std::size_t i = 0; i < out.size(); ++i) {
      const float* row = rows[static_cast<std::int64_t>(i)].data_ptr<float>();
      out[i].assign(row, row + rows.size(1));
    }
    return out;
  }

 private:
  ClientStack stack_;
  StackedShards shards_;
  torch::Device device_;
  LocalTraining local_;
};

}  // namespace

std::unique_ptr<Clients> clients_one_at_a_time(Model net, std::vector<Batch> shards, torch::Device device,
                                               LocalTraining local) {
  return std::make_unique<OneAtATime>(std::move(net), std::move(shards), device, local);
}

std::unique_ptr<Clients> clients_stacked(const std::string& model, std::int64_t side, StackedShards shards,
                                         std::int64_t count, torch::Device device, StackedConvolution convolution,
                                         LocalTraining local) {
  return std::make_unique<Stacked>(model, side, std::move(shards), count, device, convolution, local);
}

}  // namespace corbin::fl
