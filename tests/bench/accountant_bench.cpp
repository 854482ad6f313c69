// The certified accountant's scale: the worst case over every neighbouring pair of datasets for
// one coordinate at n = 10^4 to 10^6 clients (every configuration of the reduction, or the ends
// one by one and the middle in blocks), its k-fold composition up to k = 10^9 with both bounds
// and the bracket's relative width, and the exact rational worst case (exact_ucdp) it is checked
// against at n = 1 000 and 1 800. Compare times as ratios within one run.

#include <benchmark/benchmark.h>

#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"

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

// ---- Products of privacy-loss distributions by FFT (issue 38): one composition at 16 384 cells
// by the direct sum and by the certified FFT (privacy/pld/fft.hpp), and the composed worst case above
// with the default grid's products by FFT, for the ratios. ----

namespace {

constexpr std::size_t kDirectOnly = std::numeric_limits<std::size_t>::max();

/// The mechanism's pair at n = 50 (e^ε = 3), composed 16 times on grids of 16 384 points: a dense
/// distribution near the grid's size (built once).
struct Dense {
  UpperPld upper;
  LowerPld lower;
  Dense() {
    PrecisionScope scope(128);
    PldLimits limits;
    limits.max_cells = 16384;
    const NeighbouringPmfs laws = AggregateFamily(setting(50)).laws(Configuration{});
    upper = power(upper_pld(laws.p, laws.q, laws.disjoint, limits), 16, limits);
    lower = power(lower_pld(laws.p, laws.q, laws.disjoint, limits), 16, limits);
  }
};
const Dense& dense() {
  static const Dense d;
  return d;
}

/// One composition of the dense distribution with itself: range(0) 0 direct, 1 FFT; range(1) 0
/// pessimistic, 1 optimistic.
void BM_compose_16384(benchmark::State& state) {
  const Dense& d = dense();
  PldLimits limits;
  limits.max_cells = 16384;
  limits.fft_cells = state.range(0) == 1 ? 1 : kDirectOnly;
  const bool optimistic = state.range(1) == 1;
  std::size_t cells = 0;
  for (auto _ : state) {
    if (optimistic) {
      const LowerPld c = compose(d.lower, d.lower, limits);
      cells = c.p.size();
      benchmark::DoNotOptimize(c);
    } else {
      const UpperPld c = compose(d.upper, d.upper, limits);
      cells = c.mass.size();
      benchmark::DoNotOptimize(c);
    }
  }
  state.counters["cells_in"] = static_cast<double>(optimistic ? d.lower.p.size() : d.upper.mass.size());
  state.counters["cells_out"] = static_cast<double>(cells);
}

/// BM_worst_case_composed (the default grid of 2 048 points, every product directly) with the
/// products past 1 024 cells a side by FFT, about where the FFT overtakes the direct sum, on grids
/// of range(2) points.
void BM_worst_case_composed_fft(benchmark::State& state) {
  PldLimits limits;
  limits.fft_cells = 1024;
  limits.max_cells = static_cast<std::size_t>(state.range(2));
  const Accountant one(setting(static_cast<unsigned long>(state.range(0))), limits);
  const auto k = static_cast<std::uint64_t>(state.range(1));
  TwoSided eps{};
  for (auto _ : state) {
    eps = one.compose(k).epsilon(Rational(1, kDelta));
    benchmark::DoNotOptimize(eps);
  }
  record(state, eps);
}

}  // namespace

BENCHMARK(BM_compose_16384)
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_worst_case_composed_fft)
    ->Args({2, 1'000, 2048})
    ->Args({2, 1'000'000'000, 2048})
    ->Args({50, 1'000, 2048})
    ->Args({50, 1'000'000, 2048})
    ->Args({50, 1'000'000'000, 2048})
    ->Args({2, 1'000'000'000, 4096})
    ->Args({50, 1'000'000'000, 4096})
    ->Unit(benchmark::kMillisecond);
