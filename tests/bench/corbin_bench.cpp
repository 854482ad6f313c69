// corbin_bench: throughput of the samplers against memcpy and a naive sampler, and of the exact
// closed form against brute-force enumeration. items_per_second counts parameter pairs (samplers)
// or evaluations (exact laws). Run: build/tests/bench/corbin_bench [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "corbin/quantizer/enumerator.hpp"
#include "corbin/quantizer/sampler.hpp"
#include "corbin/utility/aggregate.hpp"
#include "corbin/utility/pair_mse.hpp"

using namespace corbin;

namespace {

constexpr std::size_t kPairs = std::size_t{1} << 25;
constexpr unsigned kBits = 5;

struct Arrays {
  std::vector<float> w1, w2, out1, out2;
  Arrays() : w1(kPairs), w2(kPairs), out1(kPairs), out2(kPairs) {
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::size_t i = 0; i < kPairs; ++i) {
      w1[i] = u(gen);
      w2[i] = u(gen);
    }
  }
};

Arrays& arrays() {
  static Arrays a;
  return a;
}

const Budget kBudget = Budget::make(Budget::Kind::exp_eps, 3);

// The same bytes the sampler reads and writes: two float arrays in, two out.
void BM_memcpy(benchmark::State& state) {
  Arrays& a = arrays();
  for (auto _ : state) {
    std::memcpy(a.out1.data(), a.w1.data(), kPairs * sizeof(float));
    std::memcpy(a.out2.data(), a.w2.data(), kPairs * sizeof(float));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPairs));
}

// What a straightforward port looks like: std::mt19937 draws Z and a per-parameter
// std::bernoulli_distribution resolves ties, with floating-point thresholds and branches.
void BM_naive_sampler(benchmark::State& state) {
  Arrays& a = arrays();
  const double alpha = 2.0, c = 0.0, r = 1.0, level = r * alpha, two_d = std::ldexp(1.0, kBits);
  std::mt19937 gen(42);
  std::uniform_int_distribution<std::uint32_t> z_dist(0, (1u << kBits) - 1);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kPairs; ++i) {
      const double q1 = 0.5 + (a.w1[i] - c) / (2 * r * alpha);
      const double q2 = 0.5 + (a.w2[i] - c) / (2 * r * alpha);
      const double u = two_d * q1, v = two_d * (1 - q2);
      const double t1 = std::floor(u), t2 = std::floor(v);
      const double z = z_dist(gen);
      bool plus1, minus2;
      if (z < t1) plus1 = true;
      else if (z > t1) plus1 = false;
      else plus1 = std::bernoulli_distribution(u - t1)(gen);
      if (z < t2) minus2 = true;
      else if (z > t2) minus2 = false;
      else minus2 = std::bernoulli_distribution(v - t2)(gen);
      a.out1[i] = static_cast<float>(plus1 ? c + level : c - level);
      a.out2[i] = static_cast<float>(minus2 ? c - level : c + level);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPairs));
}

void BM_corbinq_sampler(benchmark::State& state) {
  Arrays& a = arrays();
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  const CorbinqPairSampler sampler(law, kBits, derive_key(1, "z"), derive_key(1, "leader"),
                                   derive_key(1, "follower"), 0);
  for (auto _ : state) {
    sampler.sample(a.w1.data(), a.w2.data(), a.out1.data(), a.out2.data(), kPairs);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPairs));
}

void BM_ldpq_sampler(benchmark::State& state) {
  Arrays& a = arrays();
  const FixedPointLaw law(kBudget, Rational(0), Rational(1));
  const LdpqSampler sampler(law, derive_key(1, "private"), 0);
  for (auto _ : state) {
    sampler.sample(a.w1.data(), a.out1.data(), kPairs);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPairs));
}

const Rational kAlpha(2), kC(0), kR(1), kW1(3, 10), kW2(-7, 10);

void BM_exact_closed_form(benchmark::State& state) {
  const auto d = static_cast<unsigned long>(state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(corbinq_joint_law(kAlpha, kC, kR, kW1, kW2, d, Variant::corrected));
  state.SetItemsProcessed(state.iterations());
}

void BM_exact_enumerator(benchmark::State& state) {
  const auto d = static_cast<unsigned long>(state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(enumerate_joint_law(kAlpha, kC, kR, kW1, kW2, d, Variant::corrected));
  state.SetItemsProcessed(state.iterations());
}

// A full exact evaluation as `corbin joint` does it: law, three MSEs, gap, bound.
void BM_exact_pair_utility(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(pair_utility(kAlpha, kC, kR, kW1, kW2, kBits, Variant::corrected));
  state.SetItemsProcessed(state.iterations());
}

// The aggregate MSE at n distinct inputs over the server's random order (`corbin sweep
// --weights`, CorBin-FL): n² pair laws; items are those pair laws.
void BM_random_order_aggregate(benchmark::State& state) {
  const auto n = static_cast<long>(state.range(0));
  std::vector<Rational> w;
  for (long i = 0; i < n; ++i) w.push_back(kR * Rational(2 * i - (n - 1), n - 1));  // spread over [−r, r]
  for (auto _ : state)
    benchmark::DoNotOptimize(random_order_aggregate_mse(kAlpha, kC, kR, w, 0, kBits, Variant::corrected));
  state.SetItemsProcessed(state.iterations() * n * n);
}

}  // namespace

BENCHMARK(BM_memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_naive_sampler)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_corbinq_sampler)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ldpq_sampler)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_exact_closed_form)->DenseRange(4, 20, 4)->Arg(5)->Arg(64)->Arg(4096);
BENCHMARK(BM_exact_enumerator)->DenseRange(4, 20, 4)->Arg(5)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_exact_pair_utility);
BENCHMARK(BM_random_order_aggregate)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();

// `corbin conform`'s side of a trial (docs/conform.md): choosing the inputs and the draws of the
// default CorBinQ grid (laws, largest-TV search, power), and deciding a run from its answers (every
// test, the known laws' consistency, the privacy bounds). items_per_second counts settings.
#include "corbin/conform/builtin.hpp"
#include "corbin/conform/grid.hpp"

namespace {

std::vector<conform::Setting> conform_default_grid() {
  std::vector<conform::Setting> out;
  const conform::Mechanism pair{conform::Kind::corbinq, 0};
  for (const conform::Group& g : conform::grid_groups(pair, conform::GridSize::standard))
    for (conform::Setting& s : conform::choose_settings(g, "corrected")) out.push_back(std::move(s));
  return out;
}

void BM_conform_plan(benchmark::State& state) {
  std::size_t settings = 0;
  for (auto _ : state) {
    const auto grid = conform_default_grid();
    const conform::Plan plan = conform::make_plan(grid, "corrected", conform::exact_claim("corrected"), {});
    settings = plan.settings.size();
    benchmark::DoNotOptimize(plan.tests);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * settings));
}

void BM_conform_evaluate(benchmark::State& state) {
  const conform::Options o;
  const conform::Plan plan = conform::make_plan(conform_default_grid(), "corrected", conform::exact_claim("corrected"), o);
  conform::ExactSampler exact;
  std::vector<conform::Answer> answers;
  for (const conform::Request& r : plan.requests) answers.push_back(exact.draw(r));
  for (auto _ : state) benchmark::DoNotOptimize(conform::evaluate(plan, answers, o).conforms);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * plan.settings.size()));
}

}  // namespace

BENCHMARK(BM_conform_plan)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conform_evaluate)->Unit(benchmark::kMillisecond);
