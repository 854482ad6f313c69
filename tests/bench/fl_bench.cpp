// fl_bench: a federated round's parts at the paper's scale — one client's local epoch (the
// authors' MNIST model, 896 examples: a 50th of the training set), and the round mechanism
// (quantization + protocol + aggregation) over 50 clients' 421 642 parameters. The mechanism's
// share of a round is its time over 50 local epochs. Run: build/tests/bench/fl_bench
// [--benchmark_filter=...]; --threads for libtorch as in `corbin fl` is set by CORBIN_THREADS
// (default 2).

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>

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

void BM_round_mechanism(benchmark::State& state, Mechanism kind, ZTransport transport) {
  set_threads();
  const Round& r = round_data();
  MechanismConfig config;
  config.kind = kind;
  config.protocol.transport = transport;
  std::uint64_t round = 0;
  for (auto _ : state) benchmark::DoNotOptimize(obfuscated_mean(r.clients, r.global, r.layers, config, round++));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kClients * r.global.size()));
}
BENCHMARK_CAPTURE(BM_round_mechanism, corbin_z_encrypted, Mechanism::corbin, ZTransport::encrypted)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, corbin_z_derived, Mechanism::corbin, ZTransport::derived)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, ldp, Mechanism::ldp, ZTransport::derived)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, gaussian, Mechanism::gaussian, ZTransport::derived)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_round_mechanism, cq, Mechanism::cq, ZTransport::derived)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
