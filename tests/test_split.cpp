// The data splits (fl/split.hpp): the IID split unchanged, the Dirichlet label split (a partition
// of the client pool, reproducible from the seed, each client's labels near the pool's at large β
// and concentrated on a few at small β) and the Gamma variates it is drawn from.

#include <boost/math/special_functions/gamma.hpp>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>

#include "corbin/fl/split.hpp"
#include "corbin/number/error.hpp"
#include "parameter_of.hpp"

using namespace corbin;
using namespace corbin::fl;

namespace {

/// 10 classes × 100 examples, labels i mod 10.
std::vector<std::uint8_t> ten_classes() {
  std::vector<std::uint8_t> labels(1000);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<std::uint8_t>(i % 10);
  return labels;
}

std::vector<std::size_t> sizes_of(const Split& s) {
  std::vector<std::size_t> out;
  for (const auto& c : s.clients) out.push_back(c.size());
  return out;
}

/// The share of a client's examples that its `top` most frequent labels hold.
double top_share(const std::vector<std::size_t>& counts, std::size_t top) {
  std::vector<std::size_t> sorted = counts;
  std::sort(sorted.rbegin(), sorted.rend());
  const std::size_t all = std::accumulate(sorted.begin(), sorted.end(), std::size_t{0});
  return static_cast<double>(std::accumulate(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(top),
                                             std::size_t{0})) /
         static_cast<double>(all);
}

}  // namespace

TEST_CASE("the IID split is the shuffled pool cut into equal shares, as before the Dirichlet split",
          "[fl][split][unit]") {
  const Split s = split_iid(1000, 4, 7);
  const auto order = permutation(1000, derive_key(7, "data split"));
  CHECK(s.test == std::vector<std::size_t>(order.begin() + 800, order.end()));
  CHECK(s.validation == std::vector<std::size_t>(order.begin(), order.begin() + 160));
  for (std::size_t c = 0; c < 4; ++c)
    CHECK(s.clients[c] == std::vector<std::size_t>(order.begin() + static_cast<std::ptrdiff_t>(160 + 160 * c),
                                                   order.begin() + static_cast<std::ptrdiff_t>(320 + 160 * c)));
  CHECK(s.filled == 0);
}

TEST_CASE("the Dirichlet split partitions the client pool and is reproducible from the seed", "[fl][split][unit]") {
  const auto labels = ten_classes();
  const Split s = split_dirichlet(labels, 5, 0.5, 7);
  // The same test and validation sets as the IID split of the same seed.
  const Split iid = split_iid(labels.size(), 5, 7);
  CHECK(s.test == iid.test);
  CHECK(s.validation == iid.validation);
  // A partition: every example in exactly one of test, validation and the five clients.
  std::vector<int> seen(labels.size(), 0);
  for (std::size_t i : s.test) ++seen[i];
  for (std::size_t i : s.validation) ++seen[i];
  REQUIRE(s.clients.size() == 5);
  std::size_t assigned = 0;
  for (const auto& c : s.clients) {
    CHECK(!c.empty());
    assigned += c.size();
    for (std::size_t i : c) ++seen[i];
  }
  CHECK(assigned == 640);
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  CHECK(s.filled == 0);  // at β = 1/2 the cuts leave no client of five empty
  // Reproducible from the seed, another seed another split.
  const Split again = split_dirichlet(labels, 5, 0.5, 7);
  CHECK(again.clients == s.clients);
  CHECK(split_dirichlet(labels, 5, 0.5, 8).clients != s.clients);
  CHECK(split_dirichlet(labels, 5, 0.25, 7).clients != s.clients);
  // Pinned: the split is a function of the seed alone, the same on every machine (MPFR, counters).
  CHECK(sizes_of(s) == std::vector<std::size_t>{155, 71, 105, 124, 185});
  // Bad parameters are named.
  for (double beta : {0.0, -1.0, std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    INFO(beta);
    CHECK(parameter_of([&] { split_dirichlet(labels, 5, beta, 7); }) == "beta");
  }
  CHECK(parameter_of([&] { split_dirichlet(labels, 1, 0.5, 7); }) == "clients");
  CHECK(parameter_of([&] { split_dirichlet(labels, 641, 0.5, 7); }) == "clients");
  CHECK(parse_split("iid") == SplitKind::iid);
  CHECK(parse_split("dirichlet") == SplitKind::dirichlet);
  CHECK(to_string(SplitKind::dirichlet) == "dirichlet");
  CHECK(parameter_of([] { parse_split("non-iid"); }) == "split");
}

TEST_CASE("a client the cuts leave empty takes one example from the largest client", "[fl][split][unit]") {
  const auto labels = ten_classes();
  // 100 clients at β = 0.01: the shares of a class are Dir(0.01·1_100), whose total concentration
  // nβ = 1 puts its mass on a few clients (Poisson–Dirichlet with θ = 1: E #{shares >= x} = ln(1/x),
  // about 4 clients with 1/64 or more of a class's 64 examples), so over half the clients get nothing.
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const Split s = split_dirichlet(labels, 100, 0.01, seed);
    INFO("seed " << seed << ", filled " << s.filled);
    CHECK(s.filled >= 45);  // 55 to 58 at these seeds
    std::set<std::size_t> seen;
    std::size_t assigned = 0;
    for (const auto& c : s.clients) {
      CHECK(!c.empty());
      assigned += c.size();
      seen.insert(c.begin(), c.end());
    }
    CHECK(assigned == 640);
    CHECK(seen.size() == 640);
    const auto singles = std::count_if(s.clients.begin(), s.clients.end(), [](const auto& c) { return c.size() == 1; });
    CHECK(static_cast<std::size_t>(singles) >= s.filled);
  }
  // As many clients as pool examples: one each, whatever β.
  for (double beta : {0.05, 1.0, 1e4}) {
    const Split s = split_dirichlet(labels, 640, beta, 7);
    CHECK(std::all_of(s.clients.begin(), s.clients.end(), [](const auto& c) { return c.size() == 1; }));
  }
}

TEST_CASE("each client's shard is in random order, so a prefix (--per-client) keeps its labels' mix",
          "[fl][split][unit]") {
  // Were a shard ordered class by class, its first half would hold about half its classes.
  const auto labels = ten_classes();
  const Split s = split_dirichlet(labels, 2, 1e4, 3);
  for (const auto& c : s.clients) {
    const std::vector<std::size_t> half(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(c.size() / 2));
    const auto counts = label_counts(half, labels, 10);
    CHECK(*std::min_element(counts.begin(), counts.end()) > 0);
    CHECK(!std::is_sorted(c.begin(), c.end()));
  }
}

TEST_CASE("at β = 1e4 clients get the pool's label mix, and at β = 0.05 a few labels dominate each", "[fl][split][unit]") {
  const auto labels = ten_classes();
  constexpr std::size_t kClients = 5;
  // β = 1e4: p_k,i has sd √((1/5)(4/5)/(5β + 1)) ≈ 0.0018, so client i's count of class k is
  // N_k/5 up to N_k · 0.0018 · 4 < 0.5 at 4 sd (N_k <= 100), plus < 1 from the floor of each cut.
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const Split s = split_dirichlet(labels, kClients, 1e4, seed);
    CHECK(s.filled == 0);
    std::vector<std::size_t> pool(10, 0);
    for (const auto& c : s.clients) {
      const auto counts = label_counts(c, labels, 10);
      for (std::size_t k = 0; k < 10; ++k) pool[k] += counts[k];
    }
    for (const auto& c : s.clients) {
      const auto counts = label_counts(c, labels, 10);
      for (std::size_t k = 0; k < 10; ++k) {
        INFO("seed " << seed << " class " << k);
        CHECK(std::abs(static_cast<double>(counts[k]) - static_cast<double>(pool[k]) / kClients) < 2);
      }
      CHECK(top_share(counts, 2) < 0.3);  // uniform labels give 0.2 (pool proportions 0.1 ± 0.04)
    }
  }
  // β = 0.05: as β → 0 each class goes whole to one client chosen uniformly, so a client holds
  // about Binomial(10, 1/5) classes and its top two labels hold at least 2/3 of its examples with
  // probability ≈ 0.88; at β = 0.05 the classes' leftovers spread a little more. Over 20 seeds ×
  // 5 clients, count the clients whose top two labels hold >= 2/3 (80 at these seeds; balanced
  // labels give none) and the mean share of the top two (0.82 here; balanced: 0.2).
  std::size_t dominated = 0, all = 0;
  double mean_top2 = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Split s = split_dirichlet(labels, kClients, 0.05, seed);
    for (const auto& c : s.clients) {
      const double share = top_share(label_counts(c, labels, 10), 2);
      dominated += share >= 2.0 / 3;
      mean_top2 += share;
      ++all;
    }
  }
  mean_top2 /= static_cast<double>(all);
  INFO("clients dominated by two labels: " << dominated << " of " << all << "; mean top-2 share " << mean_top2);
  CHECK(dominated >= 60);
  CHECK(mean_top2 > 0.7);
}

TEST_CASE("Gamma variates have mean and variance α, and Gamma's distribution, for α below and above 1",
          "[fl][split][unit]") {
  constexpr std::size_t kDraws = 20000;
  const Key key = derive_key(1, "gamma test");
  for (double alpha : {0.05, 0.3, 1.0, 2.5, 10.0}) {
    INFO("alpha " << alpha);
    std::vector<double> x(kDraws);
    for (std::size_t j = 0; j < kDraws; ++j) x[j] = gamma_variate(alpha, key, j);
    double mean = 0, var = 0;
    for (double v : x) mean += v;
    mean /= kDraws;
    for (double v : x) var += (v - mean) * (v - mean);
    var /= kDraws - 1;
    // Five standard errors: Var(mean) = α/N; Var(s²) ≈ (μ4 − σ⁴)/N with μ4 = 3α² + 6α.
    CHECK(std::abs(mean - alpha) < 5 * std::sqrt(alpha / kDraws));
    CHECK(std::abs(var - alpha) < 5 * std::sqrt((2 * alpha * alpha + 6 * alpha) / kDraws));
    // Kolmogorov–Smirnov against the regularised incomplete gamma function: D < 1.95/√N is the
    // 0.1 % critical value.
    std::sort(x.begin(), x.end());
    double d = 0;
    for (std::size_t j = 0; j < kDraws; ++j) {
      const double f = boost::math::gamma_p(alpha, x[j]);
      d = std::max({d, f - static_cast<double>(j) / kDraws, static_cast<double>(j + 1) / kDraws - f});
    }
    CHECK(d < 1.95 / std::sqrt(kDraws));
  }
  // Counter-based: a draw depends on its key and index only.
  CHECK(gamma_variate(0.3, key, 17) == gamma_variate(0.3, key, 17));
  CHECK(gamma_variate(0.3, key, 17) != gamma_variate(0.3, key, 18));
  CHECK(gamma_variate(0.3, key, 17) != gamma_variate(0.3, derive_key(2, "gamma test"), 17));
  CHECK(gamma_variate(2.5, key, 0) == 0x1.19d4792b0d462p+2);  // pinned: the same on every machine
  for (double shape : {0.0, -2.0, std::nan(""), HUGE_VAL}) CHECK(parameter_of([&] { gamma_variate(shape, key, 0); }) == "shape");
}
