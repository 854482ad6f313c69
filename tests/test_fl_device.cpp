// The batched federated round (all clients' weights as rows of one tensor, trained at once and
// obfuscated where they are) against the one-client-at-a-time CPU round: the samplers' outputs
// and the aggregate bit for bit, and batched training against one-at-a-time training to a
// stated tolerance. On the CPU the round kernels run on the host backend; in a CUDA build the
// [cuda] cases run the same checks on the GPU.

#include <cmath>
#include <limits>

#include "corbin/fl/client_stack.hpp"
#include "corbin/fl/device_round.hpp"
#include "corbin/fl/model.hpp"
#include "corbin/fl/round_kernels.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/sampler.hpp"

// Debian's libtorch brings glog, whose CHECK aborts; the tests mean Catch's.
#undef CHECK
#include <catch2/catch.hpp>

using namespace corbin;
using namespace corbin::fl;

namespace {

/// Three layers, one of them longer than a sampler chunk (so chunk 1's streams are used), with
/// different c and r, and clients' weights inside, on and beyond each layer's [c − r, c + r].
struct RoundInputs {
  std::vector<Layer> layers{{0, 40000}, {40000, 10}, {40010, 33000}};
  std::vector<float> global;
  std::vector<std::vector<float>> clients;
  RoundInputs(std::size_t n, unsigned salt) {
    global.resize(73010);
    for (std::size_t t = 0; t < global.size(); ++t)
      global[t] = t < 40000 ? std::sin(0.37f * static_cast<float>(t)) : t < 40010 ? 0.25f + 0.01f * static_cast<float>(t % 3)
                                                                               : 2.0f + std::cos(0.11f * static_cast<float>(t));
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<float> w(global.size());
      for (std::size_t t = 0; t < w.size(); ++t) {
        const std::size_t k = (t + 1) * 7919 + i * 104729 + salt;
        w[t] = global[t] * (1.3f - 0.6f * static_cast<float>(k % 1009) / 1008.0f) + (k % 97 == 0 ? 5.0f : 0.0f);
      }
      clients.push_back(std::move(w));
    }
  }
  torch::Tensor rows(torch::Device device) const {
    std::vector<float> flat;
    for (const auto& w : clients) flat.insert(flat.end(), w.begin(), w.end());
    return torch::from_blob(flat.data(), {static_cast<std::int64_t>(clients.size()), static_cast<std::int64_t>(global.size())},
                            torch::kFloat)
        .clone()
        .to(device);
  }
};

std::vector<float> row_of(const torch::Tensor& rows, std::size_t i) {
  const torch::Tensor r = rows[static_cast<std::int64_t>(i)].cpu().contiguous();
  return {r.data_ptr<float>(), r.data_ptr<float>() + r.numel()};
}

/// Largest |a − b| in units of the last place of float at |b|.
double ulps_apart(const std::vector<float>& a, const std::vector<float>& b) {
  double most = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    const float ulp = std::nextafter(std::abs(b[t]), std::numeric_limits<float>::infinity()) - std::abs(b[t]);
    most = std::max(most, std::abs(static_cast<double>(a[t]) - b[t]) / ulp);
  }
  return most;
}

/// Each survivor's row of obfuscate_rows against the CPU samplers run on that client alone with
/// the same keys (the protocol's Z and the clients' coin keys from the plan).
void check_samplers_on(torch::Device device) {
  const RoundInputs in(5, 1);
  const torch::Tensor rows = in.rows(device);
  for (const unsigned d : {0u, 1u, 5u, 13u, 32u})
    for (const ZTransport transport : {ZTransport::encrypted, ZTransport::derived}) {
      MechanismConfig config;
      config.mechanism = &Registry::global().find("augcorbin");  // one client alone (LDPQ), two pairs
      config.gamma = Rational(1, 5);
      config.bits = d;
      config.seed = 11;
      config.protocol.transport = transport;
      const RoundPlan plan = plan_round(5, in.layers, config, 3);
      REQUIRE(plan.alone.size() == 1);
      REQUIRE(plan.channels.size() == 2);
      const torch::Tensor sent = obfuscate_rows(rows, plan, in.global, in.layers, config, 3);
      std::size_t mismatches = 0;
      for (std::size_t l = 0; l < in.layers.size(); ++l) {
        const Layer& layer = in.layers[l];
        const Geometry g = layer_geometry(in.global.data() + layer.offset, layer.size);
        const FixedPointLaw law(config.budget, to_rational(g.c), to_rational(g.r));
        const auto slice = [&](std::size_t client) {
          const auto r = row_of(sent, client);
          return std::vector<float>(r.begin() + static_cast<std::ptrdiff_t>(layer.offset),
                                    r.begin() + static_cast<std::ptrdiff_t>(layer.offset + layer.size));
        };
        std::vector<float> out1(layer.size), out2(layer.size);
        const std::size_t i = plan.alone[0];
        LdpqSampler(law, round_secret(config, 3, i, "private coins"), static_cast<std::uint32_t>(l))
            .sample(in.clients[i].data() + layer.offset, out1.data(), layer.size);
        mismatches += slice(i) != out1;
        for (const PairChannel& c : plan.channels) {
          const CorbinqPairSampler sampler(law, d, c.z_key, round_secret(config, 3, c.leader, "private coins"),
                                           round_secret(config, 3, c.follower, "private coins"),
                                           static_cast<std::uint32_t>(l));
          const float* w1 = in.clients[c.leader].data() + layer.offset;
          const float* w2 = in.clients[c.follower].data() + layer.offset;
          if (transport == ZTransport::derived) sampler.sample(w1, w2, out1.data(), out2.data(), layer.size);
          else sampler.sample_with_z(c.z[l].data(), w1, w2, out1.data(), out2.data(), layer.size);
          mismatches += (slice(c.leader) != out1) + (slice(c.follower) != out2);
        }
      }
      INFO("d=" << d << " transport=" << to_string(transport));
      CHECK(mismatches == 0);
    }
}

/// obfuscated_mean_rows against obfuscated_mean for every mechanism.
void check_rounds_on(torch::Device device, bool exact_noise) {
  const RoundInputs in(7, 2);
  const torch::Tensor rows = in.rows(device);
  for (const char* kind : {"vanilla", "ldp", "corbin", "augcorbin",
                               "gaussian", "laplace", "cq"}) {
    MechanismConfig config;
    config.mechanism = &Registry::global().find(kind);
    config.budget = Budget::make(Budget::Kind::eps, Rational(1));
    config.dropout = Rational(1, 4);
    config.seed = 5;
    for (std::uint64_t round = 0; round < 2; ++round) {
      INFO("mechanism=" << kind << " round=" << round);
      const RoundResult cpu = obfuscated_mean(in.clients, in.global, in.layers, config, round);
      const RoundResult dev = obfuscated_mean_rows(rows, in.global, in.layers, config, round);
      CHECK(dev.alone_clients == cpu.alone_clients);
      CHECK(dev.pair_clients == cpu.pair_clients);
      CHECK(dev.traffic.front().up() == cpu.traffic.front().up());
      CHECK(dev.clipped_mean == cpu.clipped_mean);
      const bool noise = std::string(kind) == "gaussian" || std::string(kind) == "laplace";
      if (noise && !exact_noise) {
        // The device's log and cos are within 2 ulps of glibc's: each draw, rounded to float,
        // lands on the CPU's float or a neighbour, and the mean of 7 such within a few ulps.
        CHECK(ulps_apart(dev.aggregate, cpu.aggregate) <= 8);
        CHECK(dev.mse_empirical == Approx(cpu.mse_empirical).epsilon(1e-6));
      } else {
        CHECK(dev.aggregate == cpu.aggregate);
        CHECK(dev.mse_empirical == cpu.mse_empirical);
      }
    }
  }
  // NaN weights are refused by client and coordinate, on both paths.
  torch::Tensor bad = rows.clone();
  bad[3][40011] = std::numeric_limits<float>::quiet_NaN();
  MechanismConfig config;
  try {
    obfuscated_mean_rows(bad, in.global, in.layers, config, 0);
    FAIL("NaN accepted");
  } catch (const invalid_argument& e) {
    CHECK(e.parameter() == "w[3][40011]");
  }
}

/// The parameters of a one-client model in flatten()'s layout, in its own precision.
torch::Tensor flat_parameters(ModelImpl& net) {
  std::vector<torch::Tensor> flat;
  for (const auto& p : net.parameters()) flat.push_back(p.detach().reshape({-1}));
  return torch::cat(flat);
}

/// One local epoch of 3 clients (20 examples each, batch 8: a short last batch) trained as one
/// stack and one at a time, in double precision: the same data orders, dropout masks, starts and
/// Adam rules, so only the order of sums inside the kernels differs. Returns the largest
/// |difference| of any weight.
double stack_vs_alone(const std::string& model, torch::Device device, StackedConvolution convolution) {
  constexpr std::int64_t kClients = 3, kExamples = 20, kSide = 8;
  torch::manual_seed(7);
  const Model start = make_model(model, kSide);
  const std::vector<float> global = flatten(*start);
  std::vector<Batch> shards;
  std::vector<std::uint64_t> seeds;
  for (std::int64_t i = 0; i < kClients; ++i) {
    shards.push_back({torch::rand({kExamples, 1, kSide, kSide}, torch::kDouble).to(device),
                      torch::randint(10, {kExamples}, torch::kLong).to(device)});
    seeds.push_back(100 + static_cast<std::uint64_t>(i));
  }
  const LocalTraining settings{8, 1e-3, 3e-3};
  ClientStack stack(model, kSide, kClients, device, torch::kDouble, convolution);
  stack.load(global);
  CHECK(torch::equal(stack.rows()[1].to(torch::kFloat).cpu(),
                     torch::from_blob(const_cast<float*>(global.data()), {static_cast<std::int64_t>(global.size())})));
  stack.train_epoch(stack_shards(shards), seeds, settings);
  const torch::Tensor batched = stack.rows().cpu();
  double most = 0;
  for (std::int64_t i = 0; i < kClients; ++i) {
    const Model net = make_model(model, kSide);
    net->to(torch::kDouble);
    assign(*net, global);
    net->to(device);
    train_epoch(*net, shards[static_cast<std::size_t>(i)], seeds[static_cast<std::size_t>(i)], device, settings);
    const torch::Tensor alone = flat_parameters(*net).cpu();
    most = std::max(most, (batched[i] - alone).abs().max().item<double>());
    // Training moved the weights (a check that cannot pass by doing nothing).
    CHECK((alone.to(torch::kFloat) - batched[i].to(torch::kFloat)).abs().max().item<double>() < 1e-6);
    CHECK((alone.to(torch::kFloat) - torch::from_blob(const_cast<float*>(global.data()),
                                                      {static_cast<std::int64_t>(global.size())}))
              .abs()
              .max()
              .item<double>() > 1e-4);
  }
  return most;
}

// Stated tolerance: 1e-12 on every weight after one epoch in double precision. Adam's first
// steps move each weight by about lr·sign(g) whatever |g|, so an error of a few ulps in a
// gradient changes a weight by far less than lr·1e-9; measured (CPU): below 1e-15.
constexpr double kStackTolerance = 1e-12;

}  // namespace

TEST_CASE("the batched round's samplers give each client what the CPU samplers give it", "[fl][device][unit]") {
  check_samplers_on(torch::kCPU);
}

TEST_CASE("the batched round equals the CPU round bit for bit", "[fl][device][unit]") {
  check_rounds_on(torch::kCPU, true);
}

TEST_CASE("batched training agrees with one-at-a-time training", "[fl][device][unit]") {
  for (const char* model : {"cnn", "mlp"})
    for (const StackedConvolution convolution : {StackedConvolution::grouped, StackedConvolution::gemm}) {
      const double most = stack_vs_alone(model, torch::kCPU, convolution);
      INFO(model << " (" << (convolution == StackedConvolution::gemm ? "gemm" : "grouped") << "): largest difference "
                 << most);
      CHECK(most < kStackTolerance);
    }
  std::vector<Batch> uneven{{torch::zeros({3, 1, 8, 8}), torch::zeros({3}, torch::kLong)},
                            {torch::zeros({4, 1, 8, 8}), torch::zeros({4}, torch::kLong)}};
  CHECK_THROWS_AS(stack_shards(uneven), invalid_argument);
}

TEST_CASE("dropout masks keep half the units, from the seed alone", "[fl][device][unit]") {
  const torch::Tensor a = dropout_keep(9, 1000, 128, torch::kCPU), b = dropout_keep(9, 1000, 128, torch::kCPU);
  CHECK(torch::equal(a, b));
  CHECK(!torch::equal(a, dropout_keep(10, 1000, 128, torch::kCPU)));
  const auto bytes = dropout_bytes(9, 1000, 128);
  CHECK(a[0][3].item<float>() == ((bytes[0] >> 3 & 1) ? 2.0f : 0.0f));
  CHECK(a[999][127].item<float>() == ((bytes[999 * 16 + 15] >> 7 & 1) ? 2.0f : 0.0f));
  // 128 000 fair bits: the kept fraction is within 4 standard deviations (0.0056) of 1/2.
  CHECK(std::abs(a.mean().item<double>() / 2 - 0.5) < 4 * 0.5 / std::sqrt(128000.0));
}

#if defined(CORBIN_WITH_CUDA)
TEST_CASE("on the GPU: the samplers give each client what the CPU samplers give it", "[fl][device][cuda]") {
  REQUIRE(torch::cuda::is_available());
  check_samplers_on(torch::kCUDA);
}

TEST_CASE("on the GPU: the batched round equals the CPU round", "[fl][device][cuda]") {
  REQUIRE(torch::cuda::is_available());
  check_rounds_on(torch::kCUDA, false);
}

TEST_CASE("on the GPU: batched training agrees with one-at-a-time training", "[fl][device][cuda]") {
  REQUIRE(torch::cuda::is_available());
  for (const char* model : {"cnn", "mlp"})
    for (const StackedConvolution convolution : {StackedConvolution::grouped, StackedConvolution::gemm}) {
      const double most = stack_vs_alone(model, torch::kCUDA, convolution);
      INFO(model << " (" << (convolution == StackedConvolution::gemm ? "gemm" : "grouped") << "): largest difference "
                 << most);
      CHECK(most < kStackTolerance);
    }
}
#endif
