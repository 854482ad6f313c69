#pragma once
// Certified probability mass functions of counts on a window, in `double` with directed rounding
// (number/directed.hpp): for each count j in [first, first + size) an enclosure
// lo[j] <= P(X = j) <= hi[j], and an upper bound `tail` on P(X outside the window).
//
// Why a window: the count of "+" outputs among n clients concentrates within O(√n) of its mean,
// so 10^7 clients need some 10^4 points, not 10^7 exact rationals. The window is chosen by
// Bernstein's inequality (the tail is certified, not estimated), and inside it each binomial is
// started at the window's first point from MPFR's log-gamma with directed rounding and continued
// by the ratio P(j+1)/P(j) = (N − j)/(j + 1) · p/(1 − p), whose terms are all positive: rounding
// upward every step gives upper bounds and downward lower bounds, with a relative error that grows
// by at most a few units in the last place per step (~1e-11 over 10^4 steps).

#include <cstdint>
#include <utility>
#include <vector>

#include "corbin/number/interval.hpp"

namespace corbin {

struct WindowPmf {
  std::int64_t first = 0;
  std::vector<double> lo, hi;  ///< enclosures of P(X = first + i)
  double tail = 0;             ///< upper bound on P(X < first or X >= first + size)
  std::size_t size() const { return hi.size(); }
};

/// Upper bound on the tail mass each binomial window leaves out (each side gets half).
constexpr double kWindowTail = 1e-60;

/// A law on {0, 1, ..., t} with P(X = i) in probs[i] (exact support, tail 0).
WindowPmf few_point_pmf(const std::vector<Interval>& probs);

/// Whether an enclosure of a probability settles a binomial: exactly 0 or 1 (a point mass), or
/// apart from both. binomial_pmf raises `undecidable` for any other.
bool settled_probability(const Interval& p);

/// Binomial(trials, p) for p enclosed by `p` (p in [0, 1]); the window leaves out at most
/// `tail_budget`. Exact point masses when p is exactly 0 or 1. Raises `undecidable` when p's
/// enclosure straddles 0 or 1.
WindowPmf binomial_pmf(std::uint64_t trials, const Interval& p, double tail_budget = kWindowTail);

/// The largest x with a certified P(Binomial(trials, p) < x) <= budget, and that bound (0 at
/// x = 0); the window's left-out mass is counted whole, as if it all lay below x.
std::pair<std::uint64_t, double> binomial_lower_quantile(std::uint64_t trials, const Interval& p,
                                                         double budget);
/// The same for each of `budgets`, the law's window computed once.
std::vector<std::pair<std::uint64_t, double>> binomial_lower_quantiles(std::uint64_t trials, const Interval& p,
                                                                       const std::vector<double>& budgets);

/// The law of X + Y for independent X, Y; its tail is at most the sum of theirs (if X + Y leaves
/// the sum of the windows, X or Y left its own).
WindowPmf convolve(const WindowPmf& a, const WindowPmf& b);

}  // namespace corbin
