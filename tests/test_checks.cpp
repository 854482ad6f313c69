// The audit's verdict logic on cases built to fail: a check handed a deliberately wrong bound
// must report `fails` with a counterexample, and the verdict helpers must separate the cases.

#include <catch2/catch.hpp>
#include <cmath>

#include "claims.hpp"
#include "corbin/utility/pair_mse.hpp"

using namespace corbin;
using namespace corbin::audit;

namespace {

Rational paper_gap(const Rational& alpha, const Rational& r, unsigned long bits) {
  return paper_gap_bound(alpha, r, bits);
}
// 64 times too small: below the exact supremum 2r²α²/2^d.
Rational gap_too_small(const Rational& alpha, const Rational& r, unsigned long bits) {
  return paper_gap_bound(alpha, r, bits) / 64;
}
// Exactly the supremum where 2^d >= α: the check must call it tight, not slack.
Rational gap_tight(const Rational& alpha, const Rational& r, unsigned long bits) {
  return 2 * r * r * alpha * alpha / Rational(pow2(bits));
}
Rational pair_bound_paper(const Rational& alpha, const Rational& r) {
  return r * r * (alpha * alpha + 2 * alpha - 1);
}
// r²α²/2: below the worst pair MSE r²α² (α <= 2).
Rational pair_bound_too_small(const Rational& alpha, const Rational& r) {
  return r * r * alpha * alpha / 2;
}

}  // namespace

TEST_CASE("bound_verdict separates tight, slack and broken bounds", "[audit][unit]") {
  CHECK(bound_verdict(Rational(1), Rational(1)) == Verdict::holds);
  CHECK(bound_verdict(Rational(1), Rational(2)) == Verdict::holds_with_slack);
  CHECK(bound_verdict(Rational(3), Rational(2)) == Verdict::fails);
}

TEST_CASE("the gap check reports a deliberately wrong bound as failing", "[audit][unit]") {
  const Grid grid = Grid::quick_grid();
  CHECK(gap_check(grid, paper_gap).verdict == Verdict::holds_with_slack);
  const ClaimResult wrong = gap_check(grid, gap_too_small);
  CHECK(wrong.verdict == Verdict::fails);
  REQUIRE(wrong.certificate.contains("counterexample"));
  const auto& cx = wrong.certificate["counterexample"];
  CHECK(Rational(parse_rational(cx["sup_gap"].get<std::string>(), "sup")) >
        parse_rational(cx["bound"].get<std::string>(), "bound"));
  // A grid where 2^d >= α everywhere (d >= 1 and e^ε >= 3 gives α <= 2): exactly tight.
  Grid tight_grid = grid;
  tight_grid.exp_eps = {Rational(3), Rational(5)};
  tight_grid.bits = {1, 5};
  CHECK(gap_check(tight_grid, gap_tight).verdict == Verdict::holds);
}

TEST_CASE("the aggregate bound check reports a deliberately wrong bound as failing", "[audit][unit]") {
  const Grid grid = Grid::quick_grid();
  CHECK(aggregate_bound_check(grid, pair_bound_paper).verdict == Verdict::holds_with_slack);
  CHECK(aggregate_bound_check(grid, pair_bound_too_small).verdict == Verdict::fails);
}

TEST_CASE("the grid's e^ε are rational and at most 1e-6 above exp(ε)", "[audit][unit]") {
  for (double eps : {0.1, 0.3, 1.0, 7.0}) {
    const double x = to_double(exp_eps_near(eps));
    CHECK(x >= std::exp(eps));
    CHECK(x - std::exp(eps) <= 1.0000001e-6);
  }
}

TEST_CASE("every claim of CLAIMS.md has a check and the quick audit decides each", "[audit][unit]") {
  const char* ids[] = {"P1", "A2", "T1a", "T1b", "T1c", "T2a", "T2b",
                       "T2c", "T3", "T4", "D0", "C1", "R1", "L1"};
  REQUIRE(all_checks().size() == std::size(ids));
  for (std::size_t i = 0; i < std::size(ids); ++i) CHECK(std::string(all_checks()[i].id) == ids[i]);
  const Grid grid = Grid::quick_grid();
  for (const NamedCheck& check : all_checks()) {
    const ClaimResult r = check.run(grid);
    INFO(r.id << ": " << r.finding);
    CHECK(r.id == check.id);
    CHECK(r.verdict != Verdict::undecided);
    CHECK_FALSE(r.finding.empty());
  }
}
