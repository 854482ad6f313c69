// The certified accountant (issue 12): the law of one coordinate at n = 10^5, 10^6, 10^7 clients
// beside the exact rational law at n = 1 000 and 3 000 (the reference it replaces: compare the
// time per client), and the k-fold composition of the PLD up to k = 10^9 with both bounds and
// ε(δ) read off.

#include <benchmark/benchmark.h>

#include "corbin/privacy/accountant.hpp"
#include "corbin/privacy/exact_ucdp.hpp"

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

/// The exact ε of one coordinate in rationals (exact_ucdp), the path the accountant replaces.
void BM_exact_rational_eps(benchmark::State& state) {
  const auto n = static_cast<unsigned long>(state.range(0));
  const ExactUcdpSetting s{n, Rational(1, 2), Rational(1, 100000),
                           SumGeometry{Rational(2), Rational(0), Rational(1), 5, Variant::corrected},
                           TargetClient::Role::ldpq};
  for (auto _ : state)
    benchmark::DoNotOptimize(exact_ucdp(s, proof_configuration(Rational(0), Rational(1)), Neighbour::replace_one));
  state.counters["s_per_client"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                                  benchmark::Counter::kInvert);
}

void BM_one_coordinate_accountant(benchmark::State& state) {
  const AccountSetting s = setting(static_cast<unsigned long>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Accountant(s).epsilon(Rational(1, 100000)));
  state.counters["s_per_client"] = benchmark::Counter(static_cast<double>(s.n), benchmark::Counter::kIsIterationInvariantRate |
                                                                                    benchmark::Counter::kInvert);
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
BENCHMARK(BM_exact_rational_eps)->Arg(1'000)->Arg(3'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_one_coordinate_accountant)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compose)->Arg(1'000)->Arg(1'000'000)->Arg(1'000'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
