// The accountant at the ends of its ranges (issues 36 and 38): the lower end of very long
// compositions, δ_lower against the number of uses, ε_upper at subnormal δ, the budgets it takes,
// and the inverse question (largest_eps). Each case asserts values; none times anything
// (docs/benchmarks.md has the timings).

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <tuple>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/run/run_ledger.hpp"

using namespace corbin;

namespace {

AccountSetting ldpq_population(unsigned long n, long exp_eps) {
  AccountSetting s;
  s.n = n;
  s.gamma = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, Rational(exp_eps));
  return s;
}

/// 10^-e exactly.
Rational ten_to_minus(unsigned e) {
  return Rational(Rational(1) / Rational(boost::multiprecision::pow(BigInt(10), e)));
}

}  // namespace

TEST_CASE("an exact zero stays zero under outward rounding", "[accountant][unit]") {
  using namespace directed;
  // Moved outward, 0 became ±2^-1074: masses where there are none (above every loss, at +∞).
  CHECK(add_up(0, 0) == 0);
  CHECK(add_down(0, 0) == 0);
  CHECK(sub_up(0.25, 0.25) == 0);
  CHECK(sub_down(0.25, 0.25) == 0);
  CHECK(mul_up(0, 0.5) == 0);
  CHECK(mul_down(0.5, 0) == 0);
  CHECK(div_up(0, 3) == 0);
  CHECK(div_down(0, 3) == 0);
  // An inexact result still moves: a product that underflows to 0 is not 0.
  CHECK(mul_up(0x1p-600, 0x1p-600) == std::numeric_limits<double>::denorm_min());
  CHECK(mul_down(0x1p-600, 0x1p-600) == -std::numeric_limits<double>::denorm_min());
  CHECK(add_up(1, 0x1p-60) > 1);
}

TEST_CASE("ε_upper at a subnormal δ stays at most k times the largest loss", "[accountant][unit]") {
  // n = 5 on LDPQ at e^ε = 2: every loss is at most ln 2. At δ = 1e-300 the bracket is about
  // [0.693147, 0.693359]; below about 1e-310 the upper end jumped to 2.11 (1e-320) and 2.47
  // (1e-400), the Rényi bound, because the PLD's masses had gained subnormal parts above every
  // loss and at +∞.
  const Accountant one(ldpq_population(5, 2));
  const double ln2 = std::log(2.0);
  for (unsigned e : {300u, 320u, 330u, 400u, 5000u}) {
    INFO("δ = 1e-" << e);
    const TwoSided b = one.epsilon(ten_to_minus(e));
    CHECK(b.lower >= ln2 * (1 - 1e-12));
    CHECK(b.upper <= 0.6934);
  }
  // k uses: never above k·ln 2 (pure DP of the bounded losses), and δ is 0 past it.
  const Accountant three = one.compose(3);
  for (unsigned e : {320u, 1000u}) {
    INFO("δ = 1e-" << e);
    const TwoSided b = three.epsilon(ten_to_minus(e));
    CHECK(b.upper <= 3 * ln2 * (1 + 1e-9));
    CHECK(b.lower <= b.upper);
  }
  CHECK(three.delta(to_rational(3 * ln2 * (1 + 1e-9))).upper == 0);
  CHECK(three.delta(Rational(2)).upper > 0);  // below 3 ln 2 some mass remains
}

TEST_CASE("a very long composition keeps its lower end", "[accountant][unit]") {
  // On the coarse grids of long compositions (a step of 2^9 and more) e^(Dh) overflowed, and the
  // optimistic products above their grid points' cell counted for nothing: ε_lower was 0 at
  // k = 10^9 (e^ε = 100, n = 100) and at k = 2^40 (n = 2), against upper ends of 1.48·10^9 and
  // 3.93·10^11.
  const Rational delta(1, 100000);
  const TwoSided a = Accountant(ldpq_population(100, 100)).compose(1000000000).epsilon(delta);
  CHECK(a.upper == Approx(1.480159690e9).epsilon(1e-6));
  CHECK(a.lower >= 0.998 * a.upper);
  const TwoSided b = Accountant(ldpq_population(2, 3)).compose(std::uint64_t(1) << 40).epsilon(delta);
  CHECK(b.upper == Approx(3.933516251e11).epsilon(1e-6));
  CHECK(b.lower >= 0.999 * b.upper);
}

TEST_CASE("δ_lower never falls as uses are added", "[accountant][unit]") {
  // δ(ε) of a k-fold composition is non-decreasing in k (the later outputs dropped are a
  // post-processing), but the optimistic PLD's rounding grows with k: at e^ε = 100, n = 100 and
  // ε = 3, δ_lower fell from 0.999999 (k = 2^20) to 0.467 (k = 2^40), where the truth is near 1.
  // Each k's lower end is the best of the powers its own composition passed through (a long
  // composition composes its two most promising configurations, which may differ from a shorter
  // one's: hence the 10^-9).
  const Accountant one(ldpq_population(100, 100));
  const Rational eps(3);
  double best = 0;
  for (int log_k : {10, 20, 30, 40}) {
    INFO("k = 2^" << log_k);
    const TwoSided d = one.compose(std::uint64_t(1) << log_k).delta(eps);
    CHECK(d.lower >= best - 1e-9);
    CHECK(d.lower <= d.upper);
    best = std::max(best, d.lower);
  }
  CHECK(best >= 0.99999);
}

TEST_CASE("the accountant takes budgets up to e^ε = 10^279 and names the one it refuses",
          "[accountant][unit]") {
  // At ε = 1000 the windows could not hold the unlikely output (undecidable, exit 3); at 10^7 the
  // refusal came after 30 s at the budget's working precision.
  for (const auto& [kind, value, name] :
       {std::tuple{Budget::Kind::eps, Rational(643), "eps"}, std::tuple{Budget::Kind::eps, Rational(10000000), "eps"},
        std::tuple{Budget::Kind::exp_eps, Rational(boost::multiprecision::pow(BigInt(10), 279) + 1), "exp_eps"},
        std::tuple{Budget::Kind::alpha, Rational(Rational(1) + ten_to_minus(300)), "alpha"}}) {
    AccountSetting s = ldpq_population(100, 3);
    s.budget = Budget::make(kind, value);
    INFO(name);
    try {
      (void)Accountant(s);
      FAIL("accepted");
    } catch (const invalid_argument& e) {
      CHECK(e.parameter() == name);
      CHECK(e.rule().find("10^279") != std::string::npos);
    }
  }
  // At the limit itself: the budget bounds a use's loss, and the bracket is finite (at the working
  // precision the budget needs, as every caller holds it).
  AccountSetting s = ldpq_population(100, 3);
  s.budget = Budget::make(Budget::Kind::eps, Rational(642));
  const PrecisionScope precision(s.budget.precision_bits(s.bits));
  const TwoSided b = Accountant(s).epsilon(Rational(1, 100000));
  CHECK(b.upper <= 642 * (1 + 1e-9));
  CHECK(b.lower > 0);
  CHECK(b.lower <= b.upper);
}

TEST_CASE("largest_eps finds the largest budget in a few trials, and says when the cap meets the target",
          "[accountant][unit]") {
  RoundKind kind;
  kind.setting = ldpq_population(100, 3);
  RunLedger ledger;
  ledger.step(kind, 100);
  const Rational delta(1, 100000);
  const LargestBudget best = largest_eps(ledger, Rational(8), delta);
  REQUIRE(best.largest);
  REQUIRE(best.refuted);
  CHECK(best.eps_upper <= 8);
  CHECK(*best.refuted > *best.largest);
  CHECK(*best.refuted - *best.largest <= *best.largest / (1 << 20));
  const auto upper_at = [&](const Rational& eps) {
    return ledger.with_budget(Budget::make(Budget::Kind::eps, eps)).epsilon(delta).bounds.upper;
  };
  CHECK(upper_at(*best.largest) == best.eps_upper);  // what the CLI prints
  CHECK(upper_at(*best.refuted) > 8);
  // Bisection from 2^-20 took up to 46 whole ledgers (35 to 57 s on 2 cores).
  CHECK(best.trials <= 16);
  // One use gives at most ε_p, so no budget up to the cap reaches 1000: said, not answered as 64.
  RunLedger once;
  once.step(kind, 1);
  const LargestBudget capped = largest_eps(once, Rational(1000), delta);
  CHECK(capped.largest == Rational(kLargestBudgetCap));
  CHECK(!capped.refuted);
  CHECK(capped.eps_upper <= kLargestBudgetCap);
}

TEST_CASE("largest_eps crosses budgets whose bound is infinite by halving, not by creeping", "[accountant][unit]") {
  // γ = 1/2, the role drawn: past some ε_p client 1's pair (S1) has no finite ε, and a secant
  // through ∞ moved a quarter of the width asked for a trial (n = 20, 10 rounds, target 2: past
  // 80 s). Each ε_upper tried is finite below the answer and infinite or above 2 past it.
  RoundKind kind;
  kind.setting = ldpq_population(20, 3);
  kind.setting.gamma = Rational(1, 2);
  RunLedger ledger;
  ledger.step(kind, 10);
  const Rational delta(1, 100000);
  const LargestBudget best = largest_eps(ledger, Rational(2), delta);
  REQUIRE(best.largest);
  REQUIRE(best.refuted);
  INFO("largest " << to_string(*best.largest) << " in " << best.trials << " trials");
  CHECK(best.eps_upper <= 2);
  CHECK(*best.refuted - *best.largest <= *best.largest / (1 << 20));
  const auto upper_at = [&](const Rational& eps) {
    return ledger.with_budget(Budget::make(Budget::Kind::eps, eps)).epsilon(delta).bounds.upper;
  };
  CHECK(upper_at(*best.refuted) > 2);
  CHECK(best.trials <= 40);
}
