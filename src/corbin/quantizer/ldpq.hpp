#pragma once
// LDPQ, the binary stochastic quantizer of LDP-FL (Alg. 1): Q(w) = c ± rα with
// P(Q = c + rα) = q = 1/2 + (w − c)/(2rα). It is unbiased, ε-PLDP, and (Prop. 1) the MSE-minimal
// such binary quantizer. Every formula here is a template on the number type (NumTraits).

#include <string>
#include <vector>

#include "corbin/number/error.hpp"
#include "corbin/number/traits.hpp"

namespace corbin {

/// Alg. 1, line 2: q = 1/2 + (w − c)/(2 r α). (w − c) and r stay exact until the division by α.
template <class T>
T ldpq_q(const T& alpha, const Rational& center, const Rational& radius, const Rational& w) {
  using N = NumTraits<T>;
  return T(T(1) / 2 + N::from(Rational(w - center)) / (N::from(Rational(2 * radius)) * alpha));
}

/// The output distance from the center, L = rα (Alg. 1, line 4).
template <class T>
T ldpq_level(const T& alpha, const Rational& radius) {
  return T(NumTraits<T>::from(radius) * alpha);
}

/// Var(Q(w)) = E[(Q − w)^2] = (rα)^2 − (w − c)^2 (unbiasedness; Appendix A).
template <class T>
T ldpq_mse(const T& alpha, const Rational& center, const Rational& radius, const Rational& w) {
  const T level = ldpq_level(alpha, radius);
  return T(level * level - NumTraits<T>::from(Rational((w - center) * (w - center))));
}

/// Validates the geometry shared by every quantizer: r > 0 and w in [c − r, c + r].
void check_radius(const Rational& radius);
void check_weight(const char* parameter, const Rational& w, const Rational& center,
                  const Rational& radius);
/// n clients' inputs (an aggregate MSE's): invalid_argument("weights") for none, and
/// invalid_argument("weights[i]") for one outside [c − r, c + r].
void check_weights(const std::vector<Rational>& weights, const Rational& center, const Rational& radius);

}  // namespace corbin
