#pragma once
// The statistics of `corbin conform`: each test's p-value, the family-wise decision, and the power
// of each test against a known alternative law (to size samples and to state what a run can show).
//
// What each test uses, and what is approximate:
//   goodness of fit, 2 cells     exact binomial test, two-sided by doubling the smaller tail (exact
//                                level: P(p <= a) <= a for every n)
//   goodness of fit, >= 3 cells  G-test (likelihood ratio), p-value from the chi-square law with
//                                k − 1 degrees of freedom after Williams' correction (Wilks'
//                                theorem: asymptotic). Cells whose expected count is below
//                                kMinExpected are pooled first (Cochran's rule), so that the
//                                approximation is not asked about cells it cannot describe.
//   a count in a cell of probability 0   rejects outright (p = 0): no sampler of the law can emit
//   it unbiasedness, >= 3 outputs   z-test of the mean with the law's exact variance (central
//   limit) independence                 G-test of independence of a contingency table (asymptotic,
//   pooled) privacy loss                 Clopper–Pearson bounds (exact, one-sided), union bound
// Decisions are Holm's step-down over every test of a run (family-wise error rate <= the level for
// any dependence between tests). Power: exact for the binomial test (the rejection region under the
// null, its probability under the alternative); for the G-test the noncentral chi-square law with
// noncentrality 2n·KL(alternative ‖ null) on the pooled cells (asymptotic). Holm rejects whenever
// Bonferroni does, so power computed at the Bonferroni level level/M is a lower bound.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "corbin/number/rational.hpp"

namespace corbin::conform {

/// Expected count below which cells (and contingency-table categories) are pooled.
constexpr double kMinExpected = 5;

struct TestOutcome {
  double statistic = 0;  ///< G (after Williams' correction), the count, or z
  double df = 0;         ///< degrees of freedom (chi-square tests)
  double p_value = 1;
  std::string method;
  std::string
      note;  ///< what decided it when not the statistic (a count where the law has probability 0)
};

/// The cells with positive probability, grouped so that every group's expected count n·p is at
/// least kMinExpected (the small cells pooled, and the pool merged with the smallest other cell
/// while it is still small). One group means nothing is left to test.
std::vector<std::vector<std::size_t>> pool_cells(const std::vector<double>& p, std::uint64_t n);

/// Goodness of fit of `counts` to the exact law `law` (same outputs): the zero-probability rule,
/// then the exact binomial test (two groups) or the G-test (more). Labels name the cells in notes.
TestOutcome goodness_of_fit(const std::vector<std::uint64_t>& counts,
                            const std::vector<Rational>& law,
                            const std::vector<std::string>& labels);

/// Exact two-sided binomial test of k successes in n draws against success probability p in (0, 1):
/// p-value min(1, 2 min(P(X <= k), P(X >= k))).
TestOutcome binomial_test(std::uint64_t k, std::uint64_t n, double p);

/// z-test of the sample mean of the decoded values against the law's mean, with the law's exact
/// variance; two-sided normal p-value.
TestOutcome mean_test(const std::vector<std::uint64_t>& counts, const std::vector<double>& values,
                      const std::vector<double>& law);

/// G-test of independence of a square contingency table (rows: one draw's output, columns: the
/// other's), categories with small margins pooled. One category left: p = 1.
TestOutcome independence_test(const std::vector<std::vector<std::uint64_t>>& table);

/// One-sided Clopper–Pearson bounds for a binomial proportion from k of n: P(p < lower) <= beta
/// and P(p > upper) <= beta.
double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double beta);
double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double beta);

/// Holm's step-down procedure at family-wise level `level`: which hypotheses it rejects.
std::vector<bool> holm(const std::vector<double>& p, double level);

/// P(chi-square with df degrees of freedom > x).
double chi_squared_sf(double x, double df);

/// Power at level `level` of goodness_of_fit with n draws when the draws follow `alternative`
/// instead of `law` (both over the same cells): the chance of a count where the law has probability
/// 0, or else of the pooled test rejecting.
double gof_power(const std::vector<double>& law, const std::vector<double>& alternative,
                 std::uint64_t n, double level);

/// Exact power of binomial_test at level `level` with n draws, null p0, true p1.
double binomial_power(double p0, double p1, std::uint64_t n, double level);

/// An n in [1, max] with power(n) >= target, within 1/256 of the smallest such n (by bisection;
/// power is taken to grow with n), or 0 if power(max) < target.
std::uint64_t draws_for_power(const std::function<double(std::uint64_t)>& power, double target,
                              std::uint64_t max);

/// The smallest shift δ of a binary output's probability p0 (either way, inside [0, 1]) that
/// binomial_test detects with probability >= power at level `level` with n draws.
double detectable_shift(double p0, std::uint64_t n, double level, double power);

}  // namespace corbin::conform
