#include "corbin/conform/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "corbin/number/error.hpp"

namespace corbin::conform {
namespace {

namespace bm = boost::math;
// In double throughout (Boost would promote to long double: 3 times slower, and the p-values and
// powers need no more than double's 16 digits); discrete quantiles unrounded (binomial_region
// rounds).
using Policy = bm::policies::policy<bm::policies::discrete_quantile<bm::policies::real>,
                                    bm::policies::promote_double<false>>;
using Binomial = bm::binomial_distribution<double, Policy>;
using ChiSquared = bm::chi_squared_distribution<double, Policy>;
using NonCentral = bm::non_central_chi_squared_distribution<double, Policy>;
using Normal = bm::normal_distribution<double, Policy>;

/// P(X <= k) and P(X >= k) for X ~ Binomial(n, p), k in [0, n].
double lower_tail(const Binomial& b, std::uint64_t k) {
  return bm::cdf(b, static_cast<double>(k));
}
double upper_tail(const Binomial& b, std::uint64_t k) {
  return k == 0 ? 1.0 : bm::cdf(bm::complement(b, static_cast<double>(k - 1)));
}

/// The binomial test's rejection region at level a: X <= lo or X >= hi, lo the largest k with
/// P(X <= k) <= a/2 (−1: none), hi the smallest with P(X >= k) <= a/2 (n + 1: none).
struct Region {
  std::int64_t lo;
  std::uint64_t hi;
};
Region binomial_region(std::uint64_t n, double p, double a) {
  const Binomial b(static_cast<double>(n), p);
  const double half = a / 2;
  auto lo = static_cast<std::int64_t>(std::floor(bm::quantile(b, half)));
  lo = std::clamp<std::int64_t>(lo, -1, static_cast<std::int64_t>(n));
  while (lo >= 0 && lower_tail(b, static_cast<std::uint64_t>(lo)) > half) lo -= 1;
  while (lo + 1 <= static_cast<std::int64_t>(n) &&
         lower_tail(b, static_cast<std::uint64_t>(lo + 1)) <= half)
    ++lo;
  double x = std::ceil(bm::quantile(bm::complement(b, half)));
  auto hi = static_cast<std::uint64_t>(std::clamp(x, 0.0, static_cast<double>(n) + 1));
  while (hi <= n && upper_tail(b, hi) > half) ++hi;
  while (hi >= 1 && upper_tail(b, hi - 1) <= half) hi -= 1;
  return {lo, hi};
}

/// Williams' correction factor of the G-test with k cells and n draws.
double williams(std::size_t k, std::uint64_t n) {
  return 1 + (static_cast<double>(k * k) - 1) /
                 (6.0 * static_cast<double>(n) * static_cast<double>(k - 1));
}

double chi_squared_upper_quantile(double df, double a) {
  return bm::quantile(bm::complement(ChiSquared(df), a));
}

std::vector<double> to_doubles(const std::vector<Rational>& x) {
  std::vector<double> out;
  for (const Rational& v : x) out.push_back(to_double(v));
  return out;
}

}  // namespace

double chi_squared_sf(double x, double df) {
  if (!(x > 0)) return 1;
  return bm::cdf(bm::complement(ChiSquared(df), x));
}

std::vector<std::vector<std::size_t>> pool_cells(const std::vector<double>& p, std::uint64_t n) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  const auto expected = [&](const std::vector<std::size_t>& g) {
    double s = 0;
    for (std::size_t i : g) s += p[i];
    return s * static_cast<double>(n);
  };
  std::vector<std::size_t> pool;
  std::vector<std::vector<std::size_t>> others;
  for (std::size_t i : order) {
    if (static_cast<double>(n) * p[i] < kMinExpected)
      pool.push_back(i);
    else
      others.push_back({i});
  }
  if (pool.empty()) return others;
  if (expected(pool) < kMinExpected && !others.empty()) {
    pool.insert(pool.end(), others.front().begin(), others.front().end());
    others.erase(others.begin());
  }
  others.insert(others.begin(), pool);
  return others;
}

TestOutcome binomial_test(std::uint64_t k, std::uint64_t n, double p) {
  if (!(p > 0 && p < 1))
    throw invalid_argument("p", corbin::describe(p), "in (0, 1) for a binomial test");
  if (k > n) throw invalid_argument("k", std::to_string(k), "at most n = " + std::to_string(n));
  TestOutcome out;
  out.statistic = static_cast<double>(k);
  out.method = "exact binomial test (two-sided: twice the smaller tail)";
  if (n == 0) return out;
  const Binomial b(static_cast<double>(n), p);
  out.p_value = std::min(1.0, 2 * std::min(lower_tail(b, k), upper_tail(b, k)));
  return out;
}

TestOutcome goodness_of_fit(const std::vector<std::uint64_t>& counts,
                            const std::vector<Rational>& law,
                            const std::vector<std::string>& labels) {
  if (counts.size() != law.size())
    throw invalid_argument("counts", std::to_string(counts.size()) + " cells",
                           std::to_string(law.size()) + " cells");
  TestOutcome out;
  const std::uint64_t n = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  for (std::size_t i = 0; i < law.size(); ++i)
    if (law[i] == 0 && counts[i] > 0) {
      out.p_value = 0;
      out.statistic = static_cast<double>(counts[i]);
      out.method = "a count in a cell of probability 0";
      out.note = std::to_string(counts[i]) + " of " + std::to_string(n) + " draws gave '" +
                 labels[i] + "', which has probability 0";
      return out;
    }
  const std::vector<double> p = to_doubles(law);
  const auto groups = pool_cells(p, n);
  const auto sum_over = [](const std::vector<std::size_t>& g, const auto& x) {
    double s = 0;
    for (std::size_t i : g) s += static_cast<double>(x[i]);
    return s;
  };
  if (groups.size() <= 1) {
    out.method = "nothing to test";
    out.note = "one cell (after pooling) holds every draw the law allows";
    return out;
  }
  if (groups.size() == 2) {
    const auto k = static_cast<std::uint64_t>(sum_over(groups[0], counts));
    out = binomial_test(k, n, sum_over(groups[0], p));
    if (groups[0].size() > 1 || groups[1].size() > 1) out.method += ", cells pooled to two";
    return out;
  }
  double g = 0;
  for (const auto& group : groups) {
    const double o = sum_over(group, counts), e = sum_over(group, p) * static_cast<double>(n);
    if (o > 0) g += 2 * o * std::log(o / e);
  }
  const std::size_t k = groups.size();
  out.statistic = std::max(0.0, g) / williams(k, n);
  out.df = static_cast<double>(k - 1);
  out.p_value = chi_squared_sf(out.statistic, out.df);
  out.method = "G-test, chi-square p-value with Williams' correction";
  if (k < law.size()) out.method += " (cells with expected count < 5 pooled, or of probability 0)";
  return out;
}

TestOutcome mean_test(const std::vector<std::uint64_t>& counts, const std::vector<double>& values,
                      const std::vector<double>& law) {
  TestOutcome out;
  out.method = "z-test of the mean (the law's exact variance; normal approximation)";
  double n = 0, sum = 0, mu = 0, var = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    n += static_cast<double>(counts[i]);
    sum += static_cast<double>(counts[i]) * values[i];
    mu += law[i] * values[i];
  }
  for (std::size_t i = 0; i < law.size(); ++i) var += law[i] * (values[i] - mu) * (values[i] - mu);
  if (n == 0) return out;
  const double mean = sum / n;
  if (!(var > 0)) {
    out.p_value = mean == mu ? 1 : 0;
    return out;
  }
  out.statistic = (mean - mu) / std::sqrt(var / n);
  out.p_value = 2 * bm::cdf(bm::complement(Normal(), std::abs(out.statistic)));
  return out;
}

TestOutcome independence_test(const std::vector<std::vector<std::uint64_t>>& table) {
  TestOutcome out;
  out.method = "G-test of independence, chi-square p-value (categories with small margins pooled)";
  const std::size_t k0 = table.size();
  std::vector<std::vector<std::size_t>> cats;
  for (std::size_t i = 0; i < k0; ++i) cats.push_back({i});
  const auto margins = [&](const std::vector<std::vector<std::size_t>>& c,
                           std::vector<double>& rows, std::vector<double>& cols) {
    rows.assign(c.size(), 0);
    cols.assign(c.size(), 0);
    for (std::size_t a = 0; a < c.size(); ++a)
      for (std::size_t b = 0; b < c.size(); ++b)
        for (std::size_t i : c[a])
          for (std::size_t j : c[b]) {
            rows[a] += static_cast<double>(table[i][j]);
            cols[b] += static_cast<double>(table[i][j]);
          }
  };
  std::vector<double> rows, cols;
  margins(cats, rows, cols);
  const double n = std::accumulate(rows.begin(), rows.end(), 0.0);
  if (n == 0) return out;
  while (cats.size() > 1) {
    const double min_expected = *std::min_element(rows.begin(), rows.end()) *
                                *std::min_element(cols.begin(), cols.end()) / n;
    if (min_expected >= kMinExpected) break;
    // Merge the two categories of smallest weight (row and column margins together).
    std::vector<std::size_t> order(cats.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return rows[a] + cols[a] < rows[b] + cols[b]; });
    const std::size_t a = std::min(order[0], order[1]), b = std::max(order[0], order[1]);
    cats[a].insert(cats[a].end(), cats[b].begin(), cats[b].end());
    cats.erase(cats.begin() + static_cast<std::ptrdiff_t>(b));
    margins(cats, rows, cols);
  }
  if (cats.size() <= 1) {
    out.note = "one category (after pooling): nothing to test";
    return out;
  }
  double g = 0;
  for (std::size_t a = 0; a < cats.size(); ++a)
    for (std::size_t b = 0; b < cats.size(); ++b) {
      double o = 0;
      for (std::size_t i : cats[a])
        for (std::size_t j : cats[b]) o += static_cast<double>(table[i][j]);
      const double e = rows[a] * cols[b] / n;
      if (o > 0) g += 2 * o * std::log(o / e);
    }
  out.statistic = std::max(0.0, g);
  out.df = static_cast<double>((cats.size() - 1) * (cats.size() - 1));
  out.p_value = chi_squared_sf(out.statistic, out.df);
  return out;
}

double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double beta) {
  if (k == 0) return 0;
  return bm::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), beta, Policy());
}

double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double beta) {
  if (k >= n) return 1;
  // The complement's inverse: 1 − β would round to 1 for β below 2^−53.
  return bm::ibetac_inv(static_cast<double>(k + 1), static_cast<double>(n - k), beta, Policy());
}

std::vector<bool> holm(const std::vector<double>& p, double level) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<bool> reject(p.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!(p[order[i]] <= level / static_cast<double>(order.size() - i))) break;
    reject[order[i]] = true;
  }
  return reject;
}

double binomial_power(double p0, double p1, std::uint64_t n, double level) {
  if (n == 0) return 0;
  const Region r = binomial_region(n, p0, level);
  const Binomial alt(static_cast<double>(n), p1);
  double power = 0;
  if (r.lo >= 0) power += lower_tail(alt, static_cast<std::uint64_t>(r.lo));
  if (r.hi <= n) power += upper_tail(alt, r.hi);
  return std::min(1.0, power);
}

double gof_power(const std::vector<double>& law, const std::vector<double>& alternative,
                 std::uint64_t n, double level) {
  if (n == 0) return 0;
  double outside = 0;  // the alternative's mass where the law has none
  for (std::size_t i = 0; i < law.size(); ++i)
    if (!(law[i] > 0)) outside += alternative[i];
  if (outside >= 1) return 1;
  std::vector<double> alt(law.size(), 0);
  for (std::size_t i = 0; i < law.size(); ++i)
    if (law[i] > 0) alt[i] = alternative[i] / (1 - outside);
  const auto groups = pool_cells(law, n);
  double inside = 0;  // the pooled test's power given no draw outside the law's support
  if (groups.size() == 2) {
    double p0 = 0, p1 = 0;
    for (std::size_t i : groups[0]) {
      p0 += law[i];
      p1 += alt[i];
    }
    inside = binomial_power(p0, std::clamp(p1, 0.0, 1.0), n, level);
  } else if (groups.size() > 2) {
    double kl = 0;
    for (const auto& g : groups) {
      double p = 0, a = 0;
      for (std::size_t i : g) {
        p += law[i];
        a += alt[i];
      }
      if (a > 0) kl += a * std::log(a / p);
    }
    const double df = static_cast<double>(groups.size() - 1);
    const double critical = chi_squared_upper_quantile(df, level) * williams(groups.size(), n);
    const double lambda = 2 * static_cast<double>(n) * std::max(0.0, kl);
    inside = lambda > 0 ? bm::cdf(bm::complement(NonCentral(df, lambda), critical))
                        : chi_squared_sf(critical, df);
  }
  const double none_outside = std::exp(static_cast<double>(n) * std::log1p(-outside));
  return 1 - none_outside * (1 - inside);
}

std::uint64_t draws_for_power(const std::function<double(std::uint64_t)>& power, double target,
                              std::uint64_t max) {
  if (max == 0 || power(max) < target) return 0;
  // Gallop up from a small n, then bisect to within 1/256 of the smallest n: most settings need far
  // fewer draws than the maximum, and a draw count a fraction of a percent high costs nothing.
  std::uint64_t lo = 0, hi = 1;
  while (hi < max && power(hi) < target) {
    lo = hi;
    hi = std::min(max, hi * 8);
  }
  while (hi - lo > std::max<std::uint64_t>(1, hi / 256)) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (power(mid) >= target)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

double detectable_shift(double p0, std::uint64_t n, double level, double power) {
  if (n == 0 || !(p0 > 0 && p0 < 1)) return std::numeric_limits<double>::infinity();
  const auto power_at = [&](double delta) {
    double worst = 1;
    if (p0 + delta <= 1) worst = std::min(worst, binomial_power(p0, p0 + delta, n, level));
    if (p0 - delta >= 0) worst = std::min(worst, binomial_power(p0, p0 - delta, n, level));
    return worst;
  };
  const double largest = std::max(p0, 1 - p0);
  if (power_at(largest) < power) return std::numeric_limits<double>::infinity();
  // Start from the normal approximation and bisect to a relative precision of about 1e-3.
  const Normal z;
  const double guess = (bm::quantile(bm::complement(z, level / 2)) + bm::quantile(z, power)) *
                       std::sqrt(p0 * (1 - p0) / static_cast<double>(n));
  double lo = std::min(largest, guess / 2), hi = std::min(largest, guess * 2);
  while (lo > 0 && power_at(lo) >= power) lo /= 2;
  while (hi < largest && power_at(hi) < power) hi = std::min(largest, hi * 2);
  for (int i = 0; i < 12 && hi - lo > 1e-3 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    if (power_at(mid) >= power)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

}  // namespace corbin::conform
