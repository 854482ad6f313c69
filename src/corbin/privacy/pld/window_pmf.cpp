#include "corbin/privacy/pld/window_pmf.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>

#include "corbin/number/directed.hpp"
#include "corbin/number/error.hpp"

namespace corbin {
namespace {

using namespace directed;

/// The working precision of a binomial window: its log-gamma of trials up to 2^53 (below 2^59)
/// keeps 64 bits more than a double's after the subtractions, with room.
constexpr unsigned kWindowBits = 192;

/// The ends of an enclosure as doubles, rounded outward.
struct Ends {
  double lo, hi;
};
Ends ends(const Interval& x) {
  return {to_double_down(lower_of(x)), to_double_up(upper_of(x))};
}

/// A fresh enclosure at the window's precision. The window sets the precision of its own values
/// rather than the working precision, which is process-wide and held fixed while worker threads
/// build windows (WorkerNumerics, number/interval.hpp); mpfi's operations round outward into
/// their target's precision.
Interval window_value() {
  Interval x;
  mpfi_set_prec(x.backend().data(), kWindowBits);
  return x;
}

/// An integer below 2^64 at the window's precision (exact: it has at most 64 bits).
Interval window_integer(std::uint64_t k) {
  Interval x = window_value();
  mpfi_set_ui(x.backend().data(), static_cast<unsigned long>(k));
  return x;
}

/// Upper bound on P(X − E X >= t) for a sum of independent terms with total variance <= v and
/// |term − its mean| <= b (Bernstein): exp(−t² / (2(v + b t / 3))), certified; 1 for t <= 0.
double bernstein(const Interval& t, const Interval& v, double b) {
  if (lower_of(t) <= 0) return 1;
  Interval num = window_value(), den = window_value();
  mpfi_sqr(num.backend().data(), t.backend().data());
  mpfi_mul_d(den.backend().data(), t.backend().data(), b);
  mpfi_div_ui(den.backend().data(), den.backend().data(), 3);
  mpfi_add(den.backend().data(), den.backend().data(), v.backend().data());
  mpfi_mul_ui(den.backend().data(), den.backend().data(), 2);
  mpfi_div(num.backend().data(), num.backend().data(), den.backend().data());
  mpfi_neg(num.backend().data(), num.backend().data());
  mpfi_exp(num.backend().data(), num.backend().data());
  return std::min(1.0, to_double_up(upper_of(num)));
}

/// ln P(Binomial(N, p) = j) enclosed at the window's precision, from log-gamma rounded in both
/// directions.
Interval log_binomial_pmf(std::uint64_t n, std::uint64_t j, const Interval& p) {
  auto add_lgamma = [](Interval& sum, std::uint64_t x, bool subtract) {  // ± ln Γ(x), x >= 1
    Real lo, hi;
    mpfr_set_prec(lo.backend().data(), kWindowBits);
    mpfr_set_prec(hi.backend().data(), kWindowBits);
    mpfr_t arg;
    mpfr_init2(arg, 64);
    mpfr_set_ui(arg, static_cast<unsigned long>(x), MPFR_RNDN);  // exact: x < 2^64
    mpfr_lngamma(lo.backend().data(), arg, MPFR_RNDD);
    mpfr_lngamma(hi.backend().data(), arg, MPFR_RNDU);
    mpfr_clear(arg);
    Interval term = window_value();
    mpfi_interv_fr(term.backend().data(), lo.backend().data(), hi.backend().data());
    if (subtract)
      mpfi_sub(sum.backend().data(), sum.backend().data(), term.backend().data());
    else
      mpfi_add(sum.backend().data(), sum.backend().data(), term.backend().data());
  };
  Interval out = window_value();
  mpfi_set_ui(out.backend().data(), 0);
  add_lgamma(out, n + 1, false);
  add_lgamma(out, j + 1, true);
  add_lgamma(out, n - j + 1, true);
  Interval term = window_value();
  if (j > 0) {  // + j ln p
    mpfi_log(term.backend().data(), p.backend().data());
    mpfi_mul_ui(term.backend().data(), term.backend().data(), static_cast<unsigned long>(j));
    mpfi_add(out.backend().data(), out.backend().data(), term.backend().data());
  }
  if (j < n) {  // + (n − j) ln(1 − p)
    mpfi_ui_sub(term.backend().data(), 1, p.backend().data());
    mpfi_log(term.backend().data(), term.backend().data());
    mpfi_mul_ui(term.backend().data(), term.backend().data(), static_cast<unsigned long>(n - j));
    mpfi_add(out.backend().data(), out.backend().data(), term.backend().data());
  }
  return out;
}

/// The recurrence over the window, every step rounded outward (number/directed.hpp).
void binomial_steps(WindowPmf& w, double trials, double ratio_lo, double ratio_hi) {
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const double j = static_cast<double>(w.first) + static_cast<double>(i);  // exact below 2^53
    const double left = trials - j;                                          // exact
    w.hi[i + 1] = mul_up(w.hi[i], div_up(mul_up(left, ratio_hi), j + 1));
    w.lo[i + 1] = mul_down(w.lo[i], div_down(mul_down(left, ratio_lo), j + 1));
  }
}

/// hi[i + j] += a_hi[i] b_hi[j], lo[i + j] += a_lo[i] b_lo[j]: the accountant's hot loop, in
/// round-to-nearest (widened by the caller), with an AVX2 clone chosen at run time (no FMA:
/// -ffp-contract=off keeps each product rounded, as SumWidening counts).
__attribute__((target_clones("avx2", "default"))) void accumulate(
    const double* a_hi, const double* a_lo, std::size_t na, const double* b_hi, const double* b_lo,
    std::size_t nb, double* hi, double* lo) {
  for (std::size_t i = 0; i < na; ++i) {
    const double ahi = a_hi[i], alo = a_lo[i];
    if (ahi == 0) continue;
    double* __restrict h = hi + i;
    double* __restrict l = lo + i;
    for (std::size_t j = 0; j < nb; ++j) {
      h[j] += ahi * b_hi[j];
      l[j] += alo * b_lo[j];
    }
  }
}

void convolve_into(const WindowPmf& a, const WindowPmf& b, WindowPmf& out) {
  // Plain round-to-nearest sums of products (vectorisable), widened afterwards (SumWidening).
  std::vector<double> hi(out.size(), 0.0), lo(out.size(), 0.0);
  if (a.size() <= b.size())  // the longer one inside: long, vectorised inner loops
    accumulate(a.hi.data(), a.lo.data(), a.size(), b.hi.data(), b.lo.data(), b.size(), hi.data(),
               lo.data());
  else
    accumulate(b.hi.data(), b.lo.data(), b.size(), a.hi.data(), a.lo.data(), a.size(), hi.data(),
               lo.data());
  // A point whose every product has a factor exactly 0 has probability exactly 0 (it is off the
  // support; a pair of laws differing there is distinguishable), so it gets no underflow allowance.
  auto has_zero = [](const std::vector<double>& v) {
    return std::find(v.begin(), v.end(), 0.0) != v.end();
  };
  const bool gaps = has_zero(a.hi) || has_zero(b.hi);
  std::vector<char> possible(out.size(), gaps ? 0 : 1);
  if (gaps)
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a.hi[i] > 0)
        for (std::size_t j = 0; j < b.size(); ++j)
          if (b.hi[j] > 0) possible[i + j] = 1;
  const SumWidening widen(std::min(a.size(), b.size()), 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out.hi[i] = possible[i] ? std::min(1.0, widen.up(hi[i])) : 0.0;
    out.lo[i] = widen.down(lo[i]);
  }
  out.tail = std::min(1.0, add_up(a.tail, b.tail));
}

}  // namespace

WindowPmf few_point_pmf(const std::vector<Interval>& probs) {
  WindowPmf w;
  for (const Interval& p : probs) {
    const Ends e = ends(p);
    w.lo.push_back(std::max(0.0, e.lo));
    w.hi.push_back(std::min(1.0, e.hi));
  }
  return w;
}

bool settled_probability(const Interval& p) {
  const Real lo = lower_of(p), hi = upper_of(p);
  return (lo == hi && (lo == 0 || lo == 1)) || (lo > 0 && hi < 1);
}

WindowPmf binomial_pmf(std::uint64_t trials, const Interval& p_in, double tail_budget) {
  if (trials >= (std::uint64_t(1) << 53))
    throw invalid_argument("trials", std::to_string(trials), "below 2^53");
  const Real plo = lower_of(p_in), phi = upper_of(p_in);
  if (phi < 0 || plo > 1)
    throw invalid_argument("probability", to_decimal(midpoint_of(p_in), 17), "in [0, 1]");
  WindowPmf w;
  if (trials == 0 || (plo == 0 && phi == 0) || (plo == 1 && phi == 1)) {  // a point mass, exactly
    w.first = (plo == 1) ? static_cast<std::int64_t>(trials) : 0;
    w.lo = w.hi = {1.0};
    return w;
  }
  // An enclosure reaching 0 or 1 (or past them: its width, not p) decides nothing here.
  if (!settled_probability(p_in))
    throw undecidable("a binomial probability is not separated from 0 or 1 at " +
                      std::to_string(working_precision_bits()) +
                      " bits; raise the working precision");
  if (lower_of(p_in) > Real(1) / 2) {
    // Counted from the other side: 1 − p stays exact in a double where p rounds to 1 (p = 1 −
    // 10^-44).
    WindowPmf w = binomial_pmf(trials, Interval(1 - p_in), tail_budget);
    std::reverse(w.lo.begin(), w.lo.end());
    std::reverse(w.hi.begin(), w.hi.end());
    w.first =
        static_cast<std::int64_t>(trials) - (w.first + static_cast<std::int64_t>(w.size()) - 1);
    return w;
  }
  // The window's values are doubles, so its arithmetic runs at a fixed precision whatever the
  // caller's (d + 128 bits and more: at d = 10^4 one log-gamma per window made `corbin account`
  // take 28 s, now independent of d). p is enclosed at that precision, outward; p <= 1/2 here,
  // so that it stays apart from 1 (1 − p was taken above at the caller's precision).
  Interval p = window_value();
  mpfi_set(p.backend().data(), p_in.backend().data());
  // Window: mean ± t with Bernstein's t for half the budget on each side (b = 1 for Bernoulli
  // terms).
  Interval mean = window_value();
  mpfi_mul_ui(mean.backend().data(), p.backend().data(), static_cast<unsigned long>(trials));
  // Interval arithmetic encloses the range of p(1 − p) over p's enclosure; its upper end bounds
  // the variance of one term, and n times it the variance v.
  Interval v = window_value();
  mpfi_ui_sub(v.backend().data(), 1, p.backend().data());
  mpfi_mul(v.backend().data(), v.backend().data(), p.backend().data());
  mpfi_set_fr(v.backend().data(), upper_of(v).backend().data());
  mpfi_mul_ui(v.backend().data(), v.backend().data(), static_cast<unsigned long>(trials));
  const double big_l = std::log(2.0 / tail_budget);
  const double vd = upper_of(v).convert_to<double>();
  const double t = big_l / 3 + std::sqrt(big_l * big_l / 9 + 2 * vd * big_l) + 1;
  const double first = std::max(0.0, std::floor(lower_of(mean).convert_to<double>() - t));
  const double last =
      std::min(static_cast<double>(trials), std::ceil(upper_of(mean).convert_to<double>() + t));
  w.first = static_cast<std::int64_t>(first);
  const auto count = static_cast<std::size_t>(last - first) + 1;
  w.lo.assign(count, 0.0);
  w.hi.assign(count, 0.0);
  // Certified tail of the window actually chosen: X <= first − 1 or X >= last + 1, the distance
  // from the mean's far end.
  double low_tail = 0, high_tail = 0;
  Interval distance = window_value();
  if (first > 0) {
    mpfi_set_fr(distance.backend().data(), lower_of(mean).backend().data());
    mpfi_sub(distance.backend().data(), distance.backend().data(),
             window_integer(static_cast<std::uint64_t>(w.first - 1)).backend().data());
    low_tail = bernstein(distance, v, 1);
  }
  if (last < static_cast<double>(trials)) {
    mpfi_set_fr(distance.backend().data(), upper_of(mean).backend().data());
    mpfi_sub(distance.backend().data(),
             window_integer(static_cast<std::uint64_t>(last) + 1).backend().data(),
             distance.backend().data());
    high_tail = bernstein(distance, v, 1);
  }
  {
    Interval start = log_binomial_pmf(trials, static_cast<std::uint64_t>(w.first), p);
    mpfi_exp(start.backend().data(), start.backend().data());
    const Ends e = ends(start);
    w.lo[0] = e.lo;
    w.hi[0] = e.hi;
  }
  const Ends pe = ends(p);
  w.tail = std::min(1.0, add_up(low_tail, high_tail));
  const double ratio_hi = div_up(pe.hi, sub_down(1.0, pe.hi));
  const double ratio_lo = div_down(pe.lo, sub_up(1.0, pe.lo));
  binomial_steps(w, static_cast<double>(trials), ratio_lo, ratio_hi);
  return w;
}

std::vector<std::pair<std::uint64_t, double>> binomial_lower_quantiles(std::uint64_t trials, const Interval& p,
                                                                       const std::vector<double>& budgets) {
  const WindowPmf w = binomial_pmf(trials, p);  // once for every budget
  std::vector<std::pair<std::uint64_t, double>> out;
  for (double budget : budgets) {
    // Below the window P(X < x) is within the tail; inside it, P(X < k + 1) = P(X < k) + P(X = k).
    if (w.tail > budget) {
      out.emplace_back(0, 0.0);
      continue;
    }
    auto x = static_cast<std::uint64_t>(w.first);
    double below = x > 0 ? w.tail : 0.0, next = w.tail;
    for (std::size_t i = 0; i < w.size() && x < trials; ++i) {
      next = add_up(next, w.hi[i]);
      if (next > budget) break;
      ++x;
      below = next;
    }
    out.emplace_back(x, below);
  }
  return out;
}

std::pair<std::uint64_t, double> binomial_lower_quantile(std::uint64_t trials, const Interval& p,
                                                         double budget) {
  return binomial_lower_quantiles(trials, p, {budget}).front();
}

WindowPmf convolve(const WindowPmf& a, const WindowPmf& b) {
  WindowPmf out;
  out.first = a.first + b.first;
  out.lo.assign(a.size() + b.size() - 1, 0.0);
  out.hi.assign(a.size() + b.size() - 1, 0.0);
  convolve_into(a, b, out);
  return out;
}

}  // namespace corbin
