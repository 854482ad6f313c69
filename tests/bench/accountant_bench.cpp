// The certified accountant (issue 12): the law of one coordinate at n = 10^5, 10^6, 10^7 clients
// (the exact rational law takes 3.5 s at n = 3 000), and the k-fold composition of the PLD up to
// k = 10^9 with both bounds and ε(δ) read off.

#include <benchmark/benchmark.h>

#include "corbin/privacy/accountant.hpp"

using namespace corbin;

namespace {

AccountSetting setting(unsigned long n) {
  AccountSetting s;
  s.n = n;
  s.gamma = Rational(1, 2);
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  return s;
}

void BM_aggregate_law(benchmark::State& state) {
  const AccountSetting s = setting(static_cast<unsigned long>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(aggregate_laws(s));
}

void BM_one_coordinate_accountant(benchmark::State& state) {
  const AccountSetting s = setting(static_cast<unsigned long>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Accountant(s).epsilon(Rational(1, 100000)));
}

void BM_compose(benchmark::State& state) {
  const Accountant one(setting(10'000'000));
  const auto k = static_cast<std::uint64_t>(state.range(0));
  TwoSided eps{};
  for (auto _ : state) {
    eps = one.compose(k).epsilon(Rational(1, 100000));
    benchmark::DoNotOptimize(eps);
  }
  state.counters["eps_lower"] = eps.lower;
  state.counters["eps_upper"] = eps.upper;
  state.counters["rel_width"] = eps.upper / eps.lower - 1;
}

}  // namespace

BENCHMARK(BM_aggregate_law)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_one_coordinate_accountant)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compose)->Arg(1'000)->Arg(1'000'000)->Arg(1'000'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
