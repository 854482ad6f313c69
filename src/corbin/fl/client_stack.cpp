#include "corbin/fl/client_stack.hpp"

#include "corbin/number/error.hpp"

namespace corbin::fl {

StackedShards stack_shards(const std::vector<Batch>& shards) {
  if (shards.empty()) throw invalid_argument("client shards", "none", "at least one");
  std::vector<torch::Tensor> xs, ys;
  for (const Batch& b : shards) {
    if (b.x.size(0) != shards.front().x.size(0) || b.x.size(0) == 0)
      throw invalid_argument("client shards", "of sizes " + std::to_string(shards.front().x.size(0)) + " and " +
                                                  std::to_string(b.x.size(0)),
                             "equal and non-empty to be trained as one stack");
    xs.push_back(b.x);
    ys.push_back(b.y);
  }
  return {torch::stack(xs), torch::stack(ys)};
}

StackedConvolution parse_stacked_convolution(const std::string& name) {
  if (name == "grouped") return StackedConvolution::grouped;
  if (name == "gemm") return StackedConvolution::gemm;
  throw invalid_argument("convolution", quote(name), "grouped or gemm");
}

ClientStack::ClientStack(const std::string& model, std::int64_t side, std::int64_t clients, torch::Device device,
                         torch::ScalarType dtype, StackedConvolution convolution)
    : model_(model), convolution_(convolution), clients_(clients), side_(side) {
  if (clients < 1) throw invalid_argument("clients", std::to_string(clients), "at least 1");
  // The shapes (and their order) from the model itself, so the rows share flatten()'s layout.
  const Model shape_source = make_model(model, side);
  dropout_units_ = shape_source->dropout_units();
  const auto options = torch::TensorOptions(dtype).device(device);
  for (const auto& p : shape_source->parameters()) {
    std::vector<std::int64_t> shape{clients};
    shape.insert(shape.end(), p.sizes().begin(), p.sizes().end());
    params_.push_back(torch::zeros(shape, options).requires_grad_(true));
  }
}

void ClientStack::load(const std::vector<float>& global) {
  torch::NoGradGuard no_grad;
  const auto& any = params_.front();
  const torch::Tensor flat =
      torch::from_blob(const_cast<float*>(global.data()), {static_cast<std::int64_t>(global.size())}, torch::kFloat)
          .to(any.device())
          .to(any.scalar_type());
  std::int64_t offset = 0;
  for (auto& p : params_) {
    const std::int64_t n = p[0].numel();
    if (offset + n > flat.size(0)) break;
    p.copy_(flat.slice(0, offset, offset + n).view(p[0].sizes()).unsqueeze(0).expand_as(p));
    offset += n;
  }
  if (offset != flat.size(0))
    throw invalid_argument("parameters", std::to_string(global.size()), "the model's size " + std::to_string(offset));
}

torch::Tensor ClientStack::rows() const {
  std::vector<torch::Tensor> flat;
  for (const auto& p : params_) flat.push_back(p.detach().reshape({clients_, -1}));
  return torch::cat(flat, 1);
}

torch::Tensor ClientStack::forward(const torch::Tensor& x, const torch::Tensor& keep) const {
  return model_ == "cnn" ? forward_cnn(x, keep) : forward_mlp(x);
}

torch::Tensor ClientStack::convolve(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) const {
  const std::int64_t g = clients_, out = weight.size(1), in = weight.size(2);
  if (convolution_ == StackedConvolution::grouped)
    return torch::conv2d(x, weight.reshape({g * out, in, 3, 3}), bias.reshape({-1}), 1, 1, 1, g);
  // Columns: im2col orders a column's rows (channel, ky, kx), channel-major, and the channels are
  // client-major, so client i's rows are a contiguous block that matches weight[i] flattened.
  const std::int64_t b = x.size(0), h = x.size(2), w = x.size(3);
  const torch::Tensor columns = torch::im2col(x, {3, 3}, {1, 1}, {1, 1}, {1, 1})
                                    .view({b, g, in * 9, h * w})
                                    .permute({1, 0, 3, 2})
                                    .reshape({g, b * h * w, in * 9});
  const torch::Tensor y = torch::baddbmm(bias.unsqueeze(1), columns, weight.reshape({g, out, in * 9}).transpose(1, 2));
  return y.view({g, b, h * w, out}).permute({1, 0, 3, 2}).reshape({b, g * out, h, w});
}

// MnistCnn::forward for every client: the clients become the groups of the convolutions
// (channels client-major), and the linear layers batched matrix products over clients.
torch::Tensor ClientStack::forward_cnn(const torch::Tensor& x, const torch::Tensor& keep) const {
  const std::int64_t g = clients_, b = x.size(1);
  const auto& p = params_;  // conv1.w, conv1.b, conv2.w, conv2.b, fc1.w, fc1.b, fc2.w, fc2.b
  torch::Tensor h = x.transpose(0, 1).reshape({b, g, side_, side_});
  h = torch::max_pool2d(torch::relu(convolve(h, p[0], p[1])), 2);
  h = torch::max_pool2d(torch::relu(convolve(h, p[2], p[3])), 2);
  h = h.reshape({b, g, -1}).transpose(0, 1);  // [clients, batch, 64·(side/4)²], each (c, y, x) as flatten(1)
  h = torch::relu(torch::baddbmm(p[5].unsqueeze(1), h, p[4].transpose(1, 2)));
  if (keep.defined()) h = h * keep;
  return torch::baddbmm(p[7].unsqueeze(1), h, p[6].transpose(1, 2));
}

torch::Tensor ClientStack::forward_mlp(const torch::Tensor& x) const {
  const auto& p = params_;  // fc1.w, fc1.b, fc2.w, fc2.b, fc3.w, fc3.b
  torch::Tensor h = x.reshape({clients_, x.size(1), -1});
  h = torch::relu(torch::baddbmm(p[1].unsqueeze(1), h, p[0].transpose(1, 2)));
  h = torch::relu(torch::baddbmm(p[3].unsqueeze(1), h, p[2].transpose(1, 2)));
  return torch::baddbmm(p[5].unsqueeze(1), h, p[4].transpose(1, 2));
}

void ClientStack::train_epoch(const StackedShards& data, const std::vector<std::uint64_t>& seeds,
                              const LocalTraining& settings) {
  const std::int64_t g = clients_, n = data.x.size(1);
  if (data.x.size(0) != g || static_cast<std::int64_t>(seeds.size()) != g)
    throw invalid_argument("client shards", std::to_string(data.x.size(0)), "one per client of the stack");
  const torch::Device device = params_.front().device();
  // Each client's epoch order, as rows of the flattened [clients · examples] data.
  std::vector<std::int64_t> order(static_cast<std::size_t>(g * n));
  std::vector<std::uint8_t> masks;
  for (std::int64_t i = 0; i < g; ++i) {
    const std::vector<std::int64_t> own = epoch_order(seeds[static_cast<std::size_t>(i)], static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) order[static_cast<std::size_t>(i * n + k)] = i * n + own[static_cast<std::size_t>(k)];
    if (dropout_units_ > 0) {
      const auto bytes = dropout_bytes(seeds[static_cast<std::size_t>(i)], n, dropout_units_);
      masks.insert(masks.end(), bytes.begin(), bytes.end());
    }
  }
  const torch::Tensor perm = torch::from_blob(order.data(), {g, n}, torch::kLong).to(device);
  torch::Tensor keep;
  if (dropout_units_ > 0)
    keep = unpack_keep(torch::from_blob(masks.data(), {g, n, (dropout_units_ + 7) / 8}, torch::kUInt8).to(device),
                       dropout_units_)
               .to(params_.front().scalar_type());
  const torch::Tensor x = data.x.reshape({g * n, 1, side_, side_}).to(params_.front().scalar_type());
  const torch::Tensor y = data.y.reshape({g * n});
  torch::optim::Adam optimizer(params_,
                               torch::optim::AdamOptions(settings.learning_rate).weight_decay(settings.weight_decay));
  for (std::int64_t start = 0; start < n; start += settings.batch) {
    const std::int64_t end = std::min(start + settings.batch, n), b = end - start;
    const torch::Tensor rows = perm.slice(1, start, end).reshape({-1});
    optimizer.zero_grad();
    const torch::Tensor logits =
        forward(x.index_select(0, rows).view({g, b, 1, side_, side_}), keep.defined() ? keep.slice(1, start, end) : keep);
    // Σ over clients of each client's mean loss: client i's gradient is its own.
    const torch::Tensor loss =
        torch::cross_entropy_loss(logits.reshape({g * b, -1}), y.index_select(0, rows), {}, at::Reduction::Sum) /
        static_cast<double>(b);
    loss.backward();
    optimizer.step();
  }
}

}  // namespace corbin::fl
