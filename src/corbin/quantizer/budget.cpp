#include "corbin/quantizer/budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/corbinq.hpp"

namespace corbin {
namespace {

/// A value for a message: exact when short, else its first 17 significant digits and its length.
std::string describe_value(const Rational& v) {
  const std::string exact = to_string(v);
  if (exact.size() <= 40) return exact;
  const PrecisionScope precision(64);
  return to_decimal(Real(v), 17) + " (exactly " + std::to_string(exact.size()) + " characters)";
}

}  // namespace

unsigned long Budget::extra_precision_bits() const {
  // log2 of a positive rational to within 1, from its numerator's and denominator's lengths
  // (ε = 10^-400 is 0 as a double).
  const auto log2_of = [](const Rational& x) {
    return static_cast<double>(msb(numerator(x))) - static_cast<double>(msb(denominator(x)));
  };
  double extra = 0;
  if (value <= 0) return 0;  // not a made budget: make() refuses it
  if (kind == Kind::eps) {
    extra = value >= 1 ? to_double(std::min(value, kMaxAlphaEps)) * 1.4426950408889634 : 2 * (2 - log2_of(value)) + 8;
  } else {
    const Rational a = alpha_exact();
    extra = std::max(0.0, 1 - log2_of(Rational(a - 1))) + 2 * std::max(0.0, log2_of(a) + 1) + 8;
  }
  return static_cast<unsigned long>(std::clamp(extra + 1, 0.0, double(kMaxPrecisionBits)));
}

unsigned Budget::precision_bits(unsigned long bits) const {
  return static_cast<unsigned>(std::min(default_precision_bits(bits) + extra_precision_bits(), kMaxPrecisionBits));
}

std::string Budget::shown_value() const { return describe_value(value); }

std::string Budget::unit_warning(const std::string& given_as, const std::string& typed, const std::string& eps_as) const {
  if (kind != Kind::exp_eps || value >= kExpEpsLooksLikeEps) return "";
  char eps[32];
  std::snprintf(eps, sizeof eps, "%.4g", std::log(to_double(value)));  // e^ε in (1, 1.5): ε in (0, 0.41)
  const std::string shown = shortened(typed);
  return given_as + " " + shown + " is e^ε, so ε = " + eps + "; for ε = " + shown + " give " + eps_as + shown;
}

const char* Budget::parameter() const {
  switch (kind) {
    case Kind::alpha: return "alpha";
    case Kind::exp_eps: return "exp_eps";
    case Kind::eps: return "eps";
  }
  return "eps";
}

Budget Budget::make(Kind kind, const Rational& value) {
  switch (kind) {
    case Kind::alpha:
      if (value <= 1) throw invalid_argument("alpha", to_string(value), "> 1 (α(ε) > 1 for ε > 0)");
      break;
    case Kind::exp_eps:
      if (value <= 1) throw invalid_argument("exp_eps", to_string(value), "> 1 (ε > 0)");
      break;
    case Kind::eps:
      if (value <= 0) throw invalid_argument("eps", to_string(value), "> 0");
      // e^ε for larger ε leaves MPFR's exponent range (about 2^(2^30)), and every enclosure of α
      // becomes [1, ∞]: no precision would decide anything (seen: undecided at 100 015 bits).
      if (value > kMaxEps)
        throw invalid_argument("eps", describe_value(value), "at most 10^8 (beyond, e^ε leaves the range of "
                                                               "certified arithmetic; give e^ε exactly)");
      break;
  }
  return Budget{kind, value};
}

Rational Budget::alpha_exact() const {
  switch (kind) {
    case Kind::alpha: return value;
    case Kind::exp_eps: return Rational((value + 1) / (value - 1));
    case Kind::eps: break;
  }
  throw invalid_argument("eps", to_string(value),
                         "replaced by an exact α or e^ε where an exact α is required");
}

Rational Budget::exp_eps_exact() const {
  const Rational a = alpha_exact();
  return Rational((a + 1) / (a - 1));
}

Interval Budget::exp_eps_interval() const {
  if (exact()) return interval_from(exp_eps_exact());
  return exp(interval_from(value));
}

Interval Budget::alpha_interval() const {
  if (exact()) return interval_from(alpha_exact());
  if (value > kMaxAlphaEps)
    throw invalid_argument("eps", describe_value(value),
                           "at most 10^4 where α(ε) is used (α − 1 ≈ 2e^−ε takes 1.44ε bits, and the work "
                           "grows faster than their square); give e^ε or α exactly");
  // α = (e^ε + 1)/(e^ε − 1) = 1 + 2/expm1(ε): e^ε − 1 computed as a difference is [0, …] once ε
  // is below the precision (ε = 10^-300 at 128 bits), and α would be [1, ∞].
  Interval e_minus_1;
  mpfi_expm1(e_minus_1.backend().data(), interval_from(value).backend().data());
  return Interval(1 + 2 / e_minus_1);
}

Interval Budget::eps_interval() const {
  if (kind == Kind::eps) return interval_from(value);
  return Interval(log(interval_from(exp_eps_exact())));
}

std::string Budget::describe() const { return std::string(parameter()) + " = " + to_string(value); }

}  // namespace corbin
