#include "corbin/fl/model.hpp"

#include <malloc.h>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin::fl {

MnistCnn::MnistCnn(std::int64_t side) {
  namespace nn = torch::nn;
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(1, 32, 3).padding(1)));
  conv2 = register_module("conv2", nn::Conv2d(nn::Conv2dOptions(32, 64, 3).padding(1)));
  const std::int64_t after = (side / 2) / 2;
  fc1 = register_module("fc1", nn::Linear(64 * after * after, 128));
  fc2 = register_module("fc2", nn::Linear(128, 10));
}

torch::Tensor MnistCnn::forward(torch::Tensor x, const torch::Tensor& keep) {
  x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
  x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
  x = torch::relu(fc1->forward(x.flatten(1)));
  if (keep.defined()) x = x * keep;  // dropout 0.5 (the authors' model), mask from the caller
  return fc2->forward(x);
}

Mlp::Mlp(std::int64_t side) {
  fc1 = register_module("fc1", torch::nn::Linear(side * side, 200));
  fc2 = register_module("fc2", torch::nn::Linear(200, 200));
  fc3 = register_module("fc3", torch::nn::Linear(200, 10));
}

torch::Tensor Mlp::forward(torch::Tensor x, const torch::Tensor&) {
  return fc3->forward(torch::relu(fc2->forward(torch::relu(fc1->forward(x.flatten(1))))));
}

std::int64_t smallest_side(const std::string& name) {
  if (name == "cnn") return 4;
  if (name == "mlp") return 1;
  throw invalid_argument("model", quote(name), "cnn or mlp");
}

Model make_model(const std::string& name, std::int64_t side) {
  // Below it a layer has no inputs, and libtorch's initialisation divides by its fan-in of 0.
  if (side < smallest_side(name))
    throw invalid_argument("side", std::to_string(side),
                           "at least " + std::to_string(smallest_side(name)) + " for the " + name);
  if (name == "cnn") return std::make_shared<MnistCnn>(side);
  if (name == "mlp") return std::make_shared<Mlp>(side);
  throw invalid_argument("model", quote(name), "cnn or mlp");
}

void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);  // serve activations from the heap, not fresh mappings
  mallopt(M_TRIM_THRESHOLD, -1);       // and never give the heap's top back (-1: no trimming)
}

std::vector<float> flatten(ModelImpl& net) {
  std::vector<float> flat;
  for (const auto& p : net.parameters()) {
    const torch::Tensor t = p.detach().to(torch::kCPU).contiguous();
    flat.insert(flat.end(), t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
  }
  return flat;
}

void assign(ModelImpl& net, const std::vector<float>& flat) {
  torch::NoGradGuard no_grad;
  std::size_t offset = 0;
  for (auto& p : net.parameters()) {
    const auto n = static_cast<std::size_t>(p.numel());
    const torch::Tensor src = torch::from_blob(const_cast<float*>(flat.data() + offset), p.sizes(), torch::kFloat);
    p.copy_(src);
    offset += n;
  }
  if (offset != flat.size()) throw invalid_argument("parameters", std::to_string(flat.size()), "the model's size");
}

std::vector<Layer> layers_of(ModelImpl& net) {
  std::vector<Layer> layers;
  std::size_t offset = 0;
  for (const auto& p : net.parameters()) {
    const auto n = static_cast<std::size_t>(p.numel());
    layers.push_back({offset, n});
    offset += n;
  }
  return layers;
}

std::size_t parameter_count(ModelImpl& net) {
  std::size_t n = 0;
  for (const auto& p : net.parameters()) n += static_cast<std::size_t>(p.numel());
  return n;
}

Normalisation parse_normalisation(const std::string& name) {
  if (name == "half") return {0.5f, 0.5f};
  if (name == "mnist") return {0.1307f, 0.3081f};
  throw invalid_argument("normalisation", quote(name), "half or mnist");
}

Batch gather(const MnistFiles& files, const std::vector<std::size_t>& indices, torch::Device device,
             const Normalisation& normalisation) {
  const Images& a = files.train.images;
  const std::size_t pixels = a.rows * a.cols, first_test = a.count;
  std::vector<float> x(indices.size() * pixels);
  std::vector<std::int64_t> y(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::size_t i = indices[k];
    const bool test = i >= first_test;
    const Images& im = test ? files.test.images : a;
    const std::size_t j = test ? i - first_test : i;
    for (std::size_t p = 0; p < pixels; ++p)
      x[k * pixels + p] = (im.pixels[j * pixels + p] / 255.0f - normalisation.mean) / normalisation.sd;
    y[k] = (test ? files.test.labels : files.train.labels)[j];
  }
  const auto n = static_cast<std::int64_t>(indices.size());
  return {torch::from_blob(x.data(), {n, 1, static_cast<std::int64_t>(a.rows), static_cast<std::int64_t>(a.cols)},
                           torch::kFloat)
              .clone()
              .to(device),
          torch::from_blob(y.data(), {n}, torch::kLong).clone().to(device)};
}

std::vector<std::uint8_t> dropout_bytes(std::uint64_t seed, std::int64_t examples, std::int64_t units) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(examples * ((units + 7) / 8)));
  keystream(derive_key(seed, "local dropout"), 0, 0, bytes.data(), bytes.size());
  return bytes;
}

torch::Tensor unpack_keep(const torch::Tensor& bytes, std::int64_t units) {
  const torch::Tensor shifts = torch::arange(8, torch::TensorOptions(torch::kUInt8).device(bytes.device()));
  const torch::Tensor bits = torch::bitwise_and(torch::bitwise_right_shift(bytes.unsqueeze(-1), shifts), 1);
  std::vector<std::int64_t> shape(bytes.sizes().begin(), bytes.sizes().end());
  shape.back() *= 8;
  return bits.reshape(shape).narrow(-1, 0, units).to(torch::kFloat).mul_(2);
}

torch::Tensor dropout_keep(std::uint64_t seed, std::int64_t examples, std::int64_t units, torch::Device device) {
  std::vector<std::uint8_t> bytes = dropout_bytes(seed, examples, units);
  const torch::Tensor packed = torch::from_blob(bytes.data(), {examples, (units + 7) / 8}, torch::kUInt8).to(device);
  return unpack_keep(packed, units);
}

std::vector<std::int64_t> epoch_order(std::uint64_t seed, std::size_t examples) {
  const std::vector<std::size_t> order = permutation(examples, derive_key(seed, "local epoch"));
  return {order.begin(), order.end()};
}

void train_epoch(ModelImpl& net, const Batch& data, std::uint64_t seed, torch::Device device,
                 const LocalTraining& settings) {
  net.train();
  torch::optim::Adam optimizer(net.parameters(),
                               torch::optim::AdamOptions(settings.learning_rate).weight_decay(settings.weight_decay));
  const std::int64_t n = data.x.size(0);
  std::vector<std::int64_t> idx = epoch_order(seed, static_cast<std::size_t>(n));
  const torch::Tensor perm = torch::from_blob(idx.data(), {n}, torch::kLong).clone().to(device);
  const std::int64_t units = net.dropout_units();
  const torch::Tensor keep =
      units > 0 ? dropout_keep(seed, n, units, device).to(data.x.scalar_type()) : torch::Tensor();
  for (std::int64_t start = 0; start < n; start += settings.batch) {
    const std::int64_t end = std::min(start + settings.batch, n);
    const torch::Tensor rows = perm.slice(0, start, end);
    optimizer.zero_grad();
    const torch::Tensor logits =
        net.forward(data.x.index_select(0, rows), keep.defined() ? keep.slice(0, start, end) : keep);
    const torch::Tensor loss = torch::cross_entropy_loss(logits, data.y.index_select(0, rows));
    loss.backward();
    optimizer.step();
  }
}

Evaluation evaluate(ModelImpl& net, const Batch& data) {
  torch::NoGradGuard no_grad;
  net.eval();
  // In slices: one forward pass over 14 000 images would allocate gigabytes of activations (on
  // the CPU 128 measured ~15 % faster than 1000; a GPU wants large slices). The sums stay on the
  // device, in double, until the end: one synchronisation per evaluation.
  const std::int64_t slice = data.x.is_cuda() ? 4096 : 128;
  const std::int64_t n = data.x.size(0);
  const auto on = torch::TensorOptions(torch::kDouble).device(data.x.device());
  torch::Tensor loss_sum = torch::zeros({}, on), correct = torch::zeros({}, on);
  for (std::int64_t start = 0; start < n; start += slice) {
    const std::int64_t end = std::min(start + slice, n);
    const torch::Tensor logits = net.forward(data.x.slice(0, start, end), {});
    const torch::Tensor labels = data.y.slice(0, start, end);
    loss_sum += torch::cross_entropy_loss(logits, labels, {}, at::Reduction::Sum).to(torch::kDouble);
    correct += logits.argmax(1).eq(labels).sum().to(torch::kDouble);
  }
  return {correct.item<double>() / static_cast<double>(n), loss_sum.item<double>() / static_cast<double>(n)};
}

}  // namespace corbin::fl
