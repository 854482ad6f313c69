#include "corbin/quantizer/budget.hpp"

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

/// A value for a message: its decimal form when its exact one is long.
std::string describe_value(const Rational& v) {
  const std::string exact = to_string(v);
  return exact.size() <= 40 ? exact : to_string(v).substr(0, 20) + "… (" + std::to_string(exact.size()) + " characters)";
}

}  // namespace

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
  const Interval x = exp(interval_from(value));
  return Interval((x + 1) / (x - 1));
}

Interval Budget::eps_interval() const {
  if (kind == Kind::eps) return interval_from(value);
  return Interval(log(interval_from(exp_eps_exact())));
}

std::string Budget::describe() const { return std::string(parameter()) + " = " + to_string(value); }

}  // namespace corbin
