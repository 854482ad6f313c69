// fl_bench: a federated round at the paper's scale — one client's local epoch (the authors'
// MNIST model, 896 examples: a 50th of the training set), the round mechanism (quantization +
// protocol + aggregation) over 50 clients' 421 642 parameters, and a full round as `corbin fl`
// runs it (50 clients' local epochs, CorBin-FL, the live check, and evaluation on 14 000 test and
// 11 200 validation images) on the CPU, one client at a time or stacked, and on a GPU when there
// is one. The images are random: the time does not depend on them. Run:
// build/tests/bench/fl_bench [--benchmark_filter=...]; libtorch's CPU threads are set by
// CORBIN_THREADS (default 2).

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <optional>

#include "corbin/fl/client_stack.hpp"
#include "corbin/fl/device_round.hpp"
#include "corbin/fl/live_check.hpp"
#include "corbin/fl/mechanism.hpp"
#include "corbin/fl/model.hpp"

using namespace corbin;
using namespace corbin::fl;

namespace {

constexpr std::size_t kClients = 50, kExamples = 896;

void set_threads() {
  const char* t = std::getenv("CORBIN_THREADS");
  torch::set_num_threads(t ? std::atoi(t) : 2);
  keep_freed_memory();
}

struct Round {
  std::vector<float> global;
  std::vector<std::vector<float>> clients;
  std::vector<Layer> layers;
  Round() {
    MnistCnn net;
    global = flatten(net);
    layers = layers_of(net);
    for (std::size_t i = 0; i < kClients; ++i) {
      std::vector<float> w(global.size());
      for (std::size_t t = 0; t < w.size(); ++t) w[t] = global[t] + 0.01f * static_cast<float>(std::sin(0.7 * t + i));
      clients.push_back(std::move(w));
    }
  }
};

const Round& round_data() {
  static const Round r;
  return r;
}

void BM_local_epoch(benchmark::State& state) {
  set_threads();
  torch::manual_seed(0);
  MnistCnn net;
  const Batch data{torch::randn({static_cast<std::int64_t>(kExamples), 1, 28, 28}),
                   torch::randint(10, {static_cast<std::int64_t>(kExamples)})};
  std::uint64_t seed = 0;
  for (auto _ : state) train_epoch(net, data, seed++, torch::kCPU);
  state.counters["threads"] = torch::get_num_threads();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kExamples));
}
BENCHMARK(BM_local_epoch)->Unit(benchmark::kMillisecond)->MinTime(3);

void BM_round_mechanism(benchmark::State& state, const char* kind, ZTransport transport) {
  set_threads();
  const Round& r = round_data();
  MechanismConfig config;
  config.mechanism = &Registry::global().find(kind);
  config.protocol.transport = transport;
  std::uint64_t round = 0;
  for (auto _ : state) benchmark::DoNotOptimize(obfuscated_mean(r.clients, r.global, r.layers, config, round++));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kClients * r.global.size()));
}
BENCHMARK_CAPTURE(BM_round_mechanism, corbin_z_encrypted, "corbin", ZTransport::encrypted)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, corbin_z_derived, "corbin", ZTransport::derived)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, ldp, "ldp", ZTransport::derived)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, gaussian, "gaussian", ZTransport::derived)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, cq, "cq", ZTransport::derived)->Unit(benchmark::kMillisecond);

/// One local epoch of all 50 clients as one stack on a GPU, its convolutions grouped
/// (state.range(0) = 0) or as batched matrix products (1), with TF32 for the batched matrix
/// products off or on (state.range(1); PyTorch's default is off, and on for convolutions).
/// cuDNN's algorithm search is on, as in `corbin fl`.
void BM_stacked_epoch_cuda(benchmark::State& state) {
  at::globalContext().setBenchmarkCuDNN(true);
  at::globalContext().setAllowTF32CuBLAS(state.range(1) != 0);
  const StackedConvolution convolution = state.range(0) != 0 ? StackedConvolution::gemm : StackedConvolution::grouped;
  const torch::Device device(torch::kCUDA);
  const auto examples = static_cast<std::int64_t>(kExamples), clients = static_cast<std::int64_t>(kClients);
  const StackedShards data{torch::randn({clients, examples, 1, 28, 28}).to(device),
                           torch::randint(10, {clients, examples}).to(device)};
  ClientStack stack("cnn", 28, clients, device, torch::kFloat, convolution);
  MnistCnn net;
  stack.load(flatten(net));
  std::vector<std::uint64_t> seeds(kClients);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kClients; ++i) ++seeds[i];
    stack.train_epoch(data, seeds);
    torch::cuda::synchronize();
  }
  at::globalContext().setBenchmarkCuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kClients * kExamples));
}

/// One full round of `corbin fl` (cmd_fl.cpp's loop body) on `device`: local training of 50
/// clients, CorBin-FL (d = 5, e^ε = 3, Z sent encrypted), the live check on its sampled
/// coordinates, and evaluation of the new global model on test and validation.
void BM_full_round(benchmark::State& state, torch::DeviceType type, bool stacked,
                   StackedConvolution convolution = StackedConvolution::grouped) {
  set_threads();
  const torch::Device device(type);
  if (device.is_cuda()) at::globalContext().setBenchmarkCuDNN(true);
  torch::manual_seed(0);
  const Model net = make_model("cnn");
  net->to(device);
  const std::vector<Layer> layers = layers_of(*net);
  std::vector<Batch> shards;
  for (std::size_t i = 0; i < kClients; ++i)
    shards.push_back({torch::randn({static_cast<std::int64_t>(kExamples), 1, 28, 28}).to(device),
                      torch::randint(10, {static_cast<std::int64_t>(kExamples)}).to(device)});
  const Batch test{torch::randn({14000, 1, 28, 28}).to(device), torch::randint(10, {14000}).to(device)};
  const Batch validation{torch::randn({11200, 1, 28, 28}).to(device), torch::randint(10, {11200}).to(device)};
  StackedShards stacked_shards;
  std::optional<ClientStack> stack;
  if (stacked) {
    stacked_shards = stack_shards(shards);
    stack.emplace("cnn", 28, static_cast<std::int64_t>(kClients), device, torch::kFloat, convolution);
  }
  MechanismConfig config;
  std::vector<float> global = flatten(*net);
  std::uint64_t round = 0;
  for (auto _ : state) {
    std::vector<std::uint64_t> seeds(kClients);
    for (std::size_t i = 0; i < kClients; ++i) seeds[i] = round * kClients + i;
    SampledWeights sampled{live_check_coordinates(layers, config.seed, round), {}};
    RoundResult r;
    if (stacked) {
      stack->load(global);
      stack->train_epoch(stacked_shards, seeds);
      const torch::Tensor rows = stack->rows();
      r = obfuscated_mean_rows(rows, global, layers, config, round);
      const std::vector<std::int64_t> at(sampled.coordinates.begin(), sampled.coordinates.end());
      const torch::Tensor picked = rows.index_select(1, torch::tensor(at, torch::kLong).to(device)).cpu().contiguous();
      sampled.values.assign(picked.data_ptr<float>(), picked.data_ptr<float>() + picked.numel());
    } else {
      std::vector<std::vector<float>> params;
      for (std::size_t i = 0; i < kClients; ++i) {
        assign(*net, global);
        train_epoch(*net, shards[i], seeds[i], device);
        params.push_back(flatten(*net));
      }
      r = obfuscated_mean(params, global, layers, config, round);
      sampled = sample_weights(params, std::move(sampled.coordinates));
    }
    benchmark::DoNotOptimize(live_check(sampled, global, layers, config, r));
    global = r.aggregate;
    assign(*net, global);
    benchmark::DoNotOptimize(evaluate(*net, test));
    benchmark::DoNotOptimize(evaluate(*net, validation));
    ++round;
  }
  state.counters["threads"] = torch::get_num_threads();
  state.counters["rounds_per_second"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_full_round, cpu_one_at_a_time, torch::kCPU, false)->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK_CAPTURE(BM_full_round, cpu_stacked, torch::kCPU, true)->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  // The GPU round where there is a GPU (registered at run time: the CPU build has none).
  if (torch::cuda::is_available())
    for (const auto& [name, convolution] : {std::pair{"BM_full_round/cuda_stacked_grouped", StackedConvolution::grouped},
                                            std::pair{"BM_full_round/cuda_stacked_gemm", StackedConvolution::gemm}})
      benchmark::RegisterBenchmark(name, BM_full_round, torch::kCUDA, true, convolution)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(5)
          ->UseRealTime();
  if (torch::cuda::is_available())
    benchmark::RegisterBenchmark("BM_stacked_epoch_cuda", BM_stacked_epoch_cuda)
        ->ArgsProduct({{0, 1}, {0, 1}})
        ->ArgNames({"gemm", "tf32_matmul"})
        ->Unit(benchmark::kMillisecond)
        ->MinTime(2)
        ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
