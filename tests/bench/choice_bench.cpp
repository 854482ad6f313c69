// The worst case over the adversary's actual choices (privacy/run/choice_plan.hpp): the adaptive
// program over k rounds for client 1 beside one other client (n = 2, the pair family) and among
// 50, and the multisets of one round's three coordinates at n = 5; the bracket each gives beside
// the dominating pair's alone (upper_only keeps the pair, the fixed configurations' lower end
// comes from the same accountant); and client 1's role drawn each round (the mixture of the two
// roles' programs). Compare times as ratios within one run.

#include <benchmark/benchmark.h>

#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/run/round.hpp"

using namespace corbin;

namespace {

AccountSetting setting(unsigned long n, const Rational& exp_eps) {
  AccountSetting s;
  s.n = n;
  s.gamma = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, exp_eps);
  return s;
}

void record(benchmark::State& state, const TwoSided& eps, double pair_upper) {
  state.counters["eps_lower"] = eps.lower;
  state.counters["eps_upper"] = eps.upper;
  state.counters["rel_width"] = eps.upper / eps.lower - 1;
  state.counters["pair_upper"] = pair_upper;
}

/// range(1) rounds of `round`, δ = 1e-5: the program's bracket, from the accountant built once
/// outside the loop (each query runs the program afresh: new rounds).
void run_rounds(benchmark::State& state, const Accountant& round) {
  const auto k = static_cast<std::uint64_t>(state.range(1));
  const Rational delta(1, 100000);
  TwoSided eps{};
  for (auto _ : state) {
    eps = round.coordinates(1, k).epsilon(delta);
    benchmark::DoNotOptimize(eps);
  }
  record(state, eps, round.coordinates(1, k).upper_only().epsilon_upper(delta));
}

/// k rounds (range(1)) at n = range(0), e^ε = 3.
void BM_adaptive_rounds(benchmark::State& state) {
  run_rounds(state, Accountant(setting(static_cast<unsigned long>(state.range(0)), Rational(3))));
}

/// Three coordinates of one round at n = 5, e^ε = 2, δ = 1/20: every multiset of the family.
void BM_multisets_one_round(benchmark::State& state) {
  const Accountant one(setting(5, Rational(2)));
  const Rational delta(1, 20);
  TwoSided eps{};
  for (auto _ : state) {
    eps = one.coordinates(3).epsilon(delta);
    benchmark::DoNotOptimize(eps);
  }
  record(state, eps, one.coordinates(3).upper_only().epsilon_upper(delta));
}

/// Client 1's role drawn each round at n = range(0), γ = 1/2, d = 0, e^ε = 3, δ = 1e-5, over
/// range(1) rounds: the labelled mixture of the two roles (round.hpp), the program given each
/// round's draw (ChoicePlan::mixture).
void BM_drawn_role_rounds(benchmark::State& state) {
  AccountSetting s = setting(static_cast<unsigned long>(state.range(0)), Rational(3));
  s.gamma = Rational(1, 2);
  s.bits = 0;
  s.role = TargetClient::Role::ldpq;
  const Accountant alone(s);
  s.role = TargetClient::Role::leader;
  const Accountant paired(s);
  run_rounds(state, alone.mixture(alone_probability(s), paired, "client 1 alone", "client 1 paired"));
}

}  // namespace

BENCHMARK(BM_drawn_role_rounds)->Args({10, 10})->Args({100, 100})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_adaptive_rounds)
    ->Args({2, 100})
    ->Args({2, 1'000})
    ->Args({50, 100})
    ->Args({50, 1'000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_multisets_one_round)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
