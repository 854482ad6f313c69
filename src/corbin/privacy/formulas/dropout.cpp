#include "corbin/privacy/formulas/dropout.hpp"

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"

namespace corbin {
namespace {

Interval iv(const Rational& x) { return interval_from(x); }

/// P(X outside [lo, hi]) for X ~ Binomial(trials, p); the interval ends are enclosures, and k
/// inside means ceil(lo) <= k <= floor(hi), certified. The terms follow the recurrence
/// P(k) = P(k − 1)·(p/(1 − p))·(trials − k + 1)/k from P(0) = (1 − p)^trials.
template <class T>
T binomial_outside(unsigned long trials, const Rational& p, const Interval& lo, const Interval& hi) {
  using N = NumTraits<T>;
  const BigInt first = -certified_floor(Interval(-lo), "the lower end of a Chebyshev interval");
  const BigInt last = certified_floor(hi, "the upper end of a Chebyshev interval");
  const Rational q = 1 - p;
  const auto n = static_cast<unsigned>(trials);
  T term;
  if constexpr (N::kExact)
    term = Rational(pow(numerator(q), n), pow(denominator(q), n));
  else
    term = Interval(exp(n * log(interval_from(q))));
  const T odds = N::from(Rational(p / q));
  T inside = N::from(Rational(0));
  for (unsigned long k = 0; k <= trials; ++k) {
    if (k > 0) term = T(term * odds * N::from(Rational(BigInt(trials - k + 1), BigInt(k))));
    if (BigInt(k) >= first && BigInt(k) <= last) inside = T(inside + term);
  }
  return T(1 - inside);
}

Probability probability_outside(unsigned long trials, const Rational& p, const Interval& lo,
                                const Interval& hi) {
  const unsigned long p_bits = msb(numerator(p)) + msb(denominator(p)) + 2;
  if (trials <= kExactBinomialTrials && trials * p_bits <= kExactBinomialBits) {
    const Rational exact = binomial_outside<Rational>(trials, p, lo, hi);
    return {exact, interval_from(exact)};
  }
  return {std::nullopt, binomial_outside<Interval>(trials, p, lo, hi)};
}

}  // namespace

void check_dropout_setting(const DropoutSetting& s) {
  if (s.n < 2 || s.n % 2 != 0)
    throw invalid_argument("n", std::to_string(s.n), "an even number >= 2 (clients are paired)");
  if (s.m < 1) throw invalid_argument("m", std::to_string(s.m), "at least 1");
  if (s.p <= 0 || s.p >= 1) throw invalid_argument("p", to_string(s.p), "in (0, 1)");
  if (s.delta <= 0 || s.delta >= 1)
    throw invalid_argument("delta", to_string(s.delta), "in (0, 1)");
  if (s.delta1 <= 0 || s.delta1 >= s.delta)
    throw invalid_argument("delta1", to_string(s.delta1), "in (0, δ) with δ = " + to_string(s.delta));
  if (s.radius <= 0) throw invalid_argument("radius", to_string(s.radius), "positive");
}

DropoutResult theorem4(const DropoutSetting& s) {
  check_dropout_setting(s);
  const Interval n = interval_from(BigInt(s.n)), pq = iv(Rational(s.p * (1 - s.p)));
  const Interval slack = iv(Rational(s.delta - s.delta1));
  const Interval a = s.budget.alpha_interval(), r = iv(s.radius);
  DropoutResult out;
  // As printed: γ, γ' = p(1−p) ∓ √(p(1−p)(1 − 2p(1−p)) / (4(δ − δ1)n)), θ = p(1−p) − √(p(1−p)/((δ − δ1)n)).
  const Interval g_width = Interval(sqrt(Interval(pq * (1 - 2 * pq) / (4 * slack * n))));
  const Interval t_width = Interval(sqrt(Interval(pq / (slack * n))));
  out.gamma = Interval(pq - g_width);
  out.gamma_prime = Interval(pq + g_width);
  out.theta = Interval(pq - t_width);
  out.theta_prime = Interval(pq + t_width);
  const Interval level2 = Interval(r * r * a * a);
  const Interval root2 = Interval(sqrt(iv(Rational(2))));
  out.mse_bound = Interval(out.gamma_prime * level2 / (n * out.theta) + 8 * level2 * iv(s.delta1) +
                           (1 - out.gamma) / (2 * n * out.theta) * r * r *
                               ((root2 - 1) * a + 1) * ((root2 + 1) * a - 1));
  out.gamma_in_range = lower_of(out.gamma) > 0 && upper_of(out.gamma) <= 1;  // certified
  out.theta_positive = lower_of(out.theta) > 0;
  // Eq. (th:3:1) needs a rational γ with nγ >= 2: take the enclosure's lower end, rounded down
  // to a rational (a smaller γ only makes the printed ε_u larger).
  if (out.gamma_in_range) {
    const Rational gamma = to_rational(lower_of(out.gamma));
    if (Rational(BigInt(s.n)) * gamma >= 2)
      out.eps_u = theorem3_printed({s.m, s.n, gamma, s.delta1, s.radius, s.budget});
  }
  out.claimed = Rational(s.delta - s.delta1);
  out.singles_outside = probability_outside(s.n / 2, Rational(2 * s.p * (1 - s.p)),
                                         Interval(out.gamma * n), Interval(out.gamma_prime * n));
  out.survivors_outside = probability_outside(s.n, Rational(1 - s.p), Interval(out.theta * n),
                                           Interval(out.theta_prime * n));
  out.survivors_mean_fraction = Rational(1 - s.p);
  return out;
}

}  // namespace corbin
