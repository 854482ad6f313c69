#pragma once
// Theorem 4 (robustness to dropout): clients drop out independently with probability p; a pair
// with exactly one survivor leaves that survivor quantizing like LDPQ. The theorem's γ, γ', θ
// come from Chebyshev's inequality on S, the number of such broken pairs, and on N, the number
// of survivors; its UCDP guarantee is Eq. (th:3:1) at that γ and its MSE bound is printed in
// the statement. Next to the formulas, the exact probabilities (p rational) of the events the
// proof bounds by δ − δ1 each:
//   S ~ Binomial(n/2, 2p(1 − p)) outside [γn, γ'n],   N ~ Binomial(n, 1 − p) outside [θn, θ'n].

#include <optional>

#include "corbin/number/interval.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"

namespace corbin {

struct DropoutSetting {
  unsigned long n = 0, m = 1;
  Rational p, delta, delta1, radius;
  Budget budget;
};

/// Raises invalid_argument: n odd or < 2 (n; clients are paired), p outside (0, 1) (p),
/// δ outside (0, 1) (delta), δ1 outside (0, δ) (delta1), m < 1 (m), r <= 0 (radius).
void check_dropout_setting(const DropoutSetting& s);

/// A probability: exact when the binomial is small enough to sum in rationals (trials <=
/// kExactBinomialTrials, and its terms, trials times the bits of p, at most kExactBinomialBits),
/// else a certified enclosure (the same recurrence in MPFI).
struct Probability {
  std::optional<Rational> exact;
  Interval enclosure;
};
constexpr unsigned long kExactBinomialTrials = 4000;
/// p = 10^-100000 (332 000 bits) made each exact term tens of millions of bits long, and
/// `corbin dropout` ran 75 s at n = 100; at this size 4 000 trials of a 128-bit p are summed exactly.
constexpr unsigned long kExactBinomialBits = 4000 * 128;

struct DropoutResult {
  Interval gamma, gamma_prime, theta, theta_prime;
  Interval mse_bound;         ///< the printed bound on lim_{d→∞} MSE
  bool gamma_in_range;        ///< γ in (0, 1] (certified); Eq. (th:3:1) needs it
  bool theta_positive;        ///< θ > 0 (certified); the MSE bound divides by it
  std::optional<UcdpFormula> eps_u;  ///< Eq. (th:3:1) at γ and δ1, when γ n >= 2
  Rational claimed;           ///< δ − δ1, what the proof assumes each event's probability is below
  Probability singles_outside;    ///< P(S outside [γn, γ'n])
  Probability survivors_outside;  ///< P(N outside [θn, θ'n])
  Rational survivors_mean_fraction;  ///< E[N]/n = 1 − p, where θ's interval is centred at p(1 − p)
};

DropoutResult theorem4(const DropoutSetting& s);

}  // namespace corbin
