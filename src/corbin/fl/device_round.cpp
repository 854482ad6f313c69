#include "corbin/fl/device_round.hpp"

#include "corbin/fl/round_kernels.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::fl {
namespace {

namespace k = kernels;

k::Backend backend_of(const torch::Tensor& t) { return t.is_cuda() ? k::Backend::cuda : k::Backend::host; }

void check_rows(const torch::Tensor& clients, const std::vector<float>& global) {
  if (clients.dim() != 2 || clients.scalar_type() != torch::kFloat || !clients.is_contiguous() ||
      clients.size(1) != static_cast<std::int64_t>(global.size()))
    throw invalid_argument("clients", "a tensor of another shape or type",
                           "contiguous float32 rows of the global model's size");
  const torch::Tensor bad = torch::isnan(clients).nonzero();
  if (bad.size(0) > 0) {
    const torch::Tensor first = bad[0].cpu();
    throw invalid_argument("w[" + std::to_string(first[0].item<std::int64_t>()) + "][" +
                               std::to_string(first[1].item<std::int64_t>()) + "]",
                           "NaN", "a number (a NaN weight cannot be obfuscated or averaged)");
  }
}

/// Z as the followers received it, every pair's layers concatenated, where the weights are.
struct ReceivedZ {
  torch::Tensor bytes;
  std::vector<std::vector<std::int64_t>> offset;  ///< [pair][layer]
};
ReceivedZ upload_z(const RoundPlan& plan, torch::Device device) {
  ReceivedZ out;
  std::vector<std::uint8_t> all;
  for (const PairChannel& c : plan.channels) {
    out.offset.emplace_back();
    for (const auto& layer_z : c.z) {
      out.offset.back().push_back(static_cast<std::int64_t>(all.size()));
      all.insert(all.end(), layer_z.begin(), layer_z.end());
    }
  }
  all.resize(all.size() + 8);  // never empty
  // clone: on the CPU `to` would return the view of `all` itself, which dies here.
  out.bytes = torch::from_blob(all.data(), {static_cast<std::int64_t>(all.size())}, torch::kUInt8).clone().to(device);
  return out;
}

}  // namespace

torch::Tensor obfuscate_rows(const torch::Tensor& clients, const RoundPlan& plan, const std::vector<float>& global,
                             const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round) {
  check_rows(clients, global);
  const Mechanism& mechanism = *config.mechanism;
  const DeviceKernel kernel = mechanism.device_kernel();
  const bool noise = kernel == DeviceKernel::gaussian_noise || kernel == DeviceKernel::laplace_noise;
  if (!noise && kernel != DeviceKernel::quantizer)
    throw invalid_argument("mechanism", mechanism.name(), "one with device kernels that sample per client");
  const auto m = static_cast<std::uint64_t>(clients.size(1));
  const float* w = clients.data_ptr<float>();
  torch::Tensor sent = torch::empty_like(clients);
  float* q = sent.data_ptr<float>();
  const ReceivedZ z = config.protocol.transport == ZTransport::encrypted && !plan.channels.empty()
                          ? upload_z(plan, clients.device())
                          : ReceivedZ{};
  std::vector<k::LdpqJob> ldpq;
  std::vector<k::CorbinqJob> pairs;
  std::vector<k::NoiseJob> noises;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const Layer& layer = layers[l];
    const Geometry g = layer_geometry(global.data() + layer.offset, layer.size);
    const auto stream = static_cast<std::uint32_t>(l);
    const auto row = [&](std::size_t client) { return client * m + layer.offset; };
    const auto secret = [&](std::size_t client, const char* purpose) {
      return key_words(round_secret(config, round, client, purpose));
    };
    if (noise) {
      const double scale = *mechanism.noise_scale(config, g);
      for (std::size_t i : plan.alone)
        noises.push_back({w + row(i), q + row(i), layer.size, secret(i, "noise"), stream, g, scale,
                          kernel == DeviceKernel::gaussian_noise ? 1u : 0u});
      continue;
    }
    const FixedPointLaw law(config.budget, to_rational(g.c), to_rational(g.r));
    for (std::size_t i : plan.alone)
      ldpq.push_back({w + row(i), q + row(i), layer.size, secret(i, "private coins"), stream, law.constants(0)});
    for (std::size_t p = 0; p < plan.channels.size(); ++p) {
      const PairChannel& c = plan.channels[p];
      const std::uint8_t* received = z.bytes.defined() ? z.bytes.data_ptr<std::uint8_t>() + z.offset[p][l] : nullptr;
      pairs.push_back({w + row(c.leader), w + row(c.follower), q + row(c.leader), q + row(c.follower), layer.size,
                       key_words(c.z_key), secret(c.leader, "private coins"), secret(c.follower, "private coins"),
                       received, stream, config.bits, law.constants(kFixedBits - config.bits)});
    }
  }
  const k::Backend backend = backend_of(clients);
  bool nan = false;
  if (noise) k::run_noise(backend, noises);
  nan |= k::run_ldpq(backend, ldpq);
  nan |= k::run_corbinq(backend, pairs);
  if (nan) throw invalid_argument("w", "NaN", "a number");  // check_rows has looked; a kernel disagreeing is a bug
  return sent;
}

RoundResult obfuscated_mean_rows(const torch::Tensor& clients, const std::vector<float>& global,
                                 const std::vector<Layer>& layers, const MechanismConfig& config, std::uint64_t round) {
  check_rows(clients, global);
  if (config.mechanism->device_kernel() == DeviceKernel::host) {  // on the host: see the header
    const torch::Tensor host = clients.cpu();
    std::vector<std::vector<float>> rows(static_cast<std::size_t>(host.size(0)));
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i].assign(host[static_cast<std::int64_t>(i)].data_ptr<float>(),
                     host[static_cast<std::int64_t>(i)].data_ptr<float>() + host.size(1));
    return obfuscated_mean(rows, global, layers, config, round);
  }
  const RoundPlan plan = plan_round(static_cast<std::size_t>(clients.size(0)), layers, config, round);
  RoundResult out = plan.result_frame();
  if (out.survivors() == 0) {
    out.aggregate = global;
    out.clipped_mean = global;
    return out;
  }
  const bool vanilla = config.mechanism->device_kernel() == DeviceKernel::identity;
  const torch::Tensor sent = vanilla ? clients : obfuscate_rows(clients, plan, global, layers, config, round);
  const auto device = clients.device();
  const std::vector<std::size_t> order = plan.summation_order();
  const std::vector<std::uint32_t> order32(order.begin(), order.end());
  const torch::Tensor order_t =
      torch::from_blob(const_cast<std::uint32_t*>(order32.data()), {static_cast<std::int64_t>(order32.size())},
                       torch::kInt32)
          .to(device);
  const std::int64_t m = clients.size(1);
  const torch::Tensor aggregate = torch::empty({m}, clients.options()), clipped = torch::empty({m}, clients.options());
  const torch::Tensor error = torch::empty({m}, clients.options().dtype(torch::kDouble));
  const k::SumInput input{sent.data_ptr<float>(),
                          clients.data_ptr<float>(),
                          static_cast<std::uint64_t>(m),
                          reinterpret_cast<const std::uint32_t*>(order_t.data_ptr<std::int32_t>()),
                          static_cast<std::uint32_t>(order32.size()),
                          aggregate.data_ptr<float>(),
                          clipped.data_ptr<float>(),
                          error.data_ptr<double>()};
  std::vector<k::SumJob> jobs;
  for (const Layer& layer : layers)
    jobs.push_back({layer.offset, layer.size, layer_geometry(global.data() + layer.offset, layer.size), vanilla ? 0u : 1u});
  k::run_sums(backend_of(clients), input, jobs);
  const torch::Tensor a = aggregate.cpu(), c = clipped.cpu(), e = error.cpu();
  out.aggregate.assign(a.data_ptr<float>(), a.data_ptr<float>() + m);
  out.clipped_mean.assign(c.data_ptr<float>(), c.data_ptr<float>() + m);
  double squared = 0;
  for (std::int64_t t = 0; t < m; ++t) squared += e.data_ptr<double>()[t] * e.data_ptr<double>()[t];
  out.mse_empirical = squared / static_cast<double>(m);
  return out;
}

}  // namespace corbin::fl
