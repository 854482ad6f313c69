// The certified accountant's scale: the worst case over every neighbouring pair of datasets for
// one coordinate at n = 10^4 to 10^6 clients (every configuration of the reduction, or the ends
// one by one and the middle in blocks), its k-fold composition up to k = 10^9 with both bounds
// and the bracket's relative width, and the exact rational worst case (exact_ucdp) it is checked
// against at n = 1 000 and 1 800. Compare times as ratios within one run.

#include <benchmark/benchmark.h>

#include "corbin/privacy/accountant.hpp"
#include "corbin/privacy/exact_ucdp.hpp"

using namespace corbin;

namespace {

constexpr unsigned long kDelta = 100000;  // δ = 1/kDelta

AccountSetting setting(unsigned long n) {
  AccountSetting s;
  s.n = n;
  s.gamma = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(3));
  return s;
}

void record(benchmark::State& state, const TwoSided& eps) {
  state.counters["eps_lower"] = eps.lower;
  state.counters["eps_upper"] = eps.upper;
  state.counters["rel_width"] = eps.upper / eps.lower - 1;
}

/// One coordinate, one round: the worst case over every configuration, ε(δ) both sides.
void BM_worst_case_one_coordinate(benchmark::State& state) {
  const AccountSetting s = setting(static_cast<unsigned long>(state.range(0)));
  TwoSided eps{};
  for (auto _ : state) {
    eps = Accountant(s).epsilon(Rational(1, kDelta));
    benchmark::DoNotOptimize(eps);
  }
  record(state, eps);
}

/// The same composed k times (built once outside the loop), for client 1 beside one other
/// client (n = 2: the most asymmetric family) and among 50.
void BM_worst_case_composed(benchmark::State& state) {
  const Accountant one(setting(static_cast<unsigned long>(state.range(0))));
  const auto k = static_cast<std::uint64_t>(state.range(1));
  TwoSided eps{};
  for (auto _ : state) {
    eps = one.compose(k).epsilon(Rational(1, kDelta));
    benchmark::DoNotOptimize(eps);
  }
  record(state, eps);
}

/// The exact rational worst case (the certified windows prune, exact laws decide).
void BM_exact_worst_case(benchmark::State& state) {
  const auto n = static_cast<unsigned long>(state.range(0));
  const ExactUcdpSetting s{
      n, Rational(1), Rational(1, kDelta),
      SumGeometry{Rational(2), Rational(0), Rational(1), 5, Variant::corrected},
      TargetClient::Role::ldpq};
  std::size_t laws = 0;
  for (auto _ : state) {
    const ExactUcdpResult r = exact_ucdp(s, Neighbour::replace_one);
    laws = r.exact_laws;
    benchmark::DoNotOptimize(r);
  }
  state.counters["exact_laws"] = static_cast<double>(laws);
}

}  // namespace

BENCHMARK(BM_worst_case_one_coordinate)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_worst_case_composed)
    ->Args({2, 1'000})
    ->Args({2, 1'000'000'000})
    ->Args({50, 1'000})
    ->Args({50, 1'000'000})
    ->Args({50, 1'000'000'000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_exact_worst_case)->Arg(1'000)->Arg(1'800)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
