#include "corbin/number/rational.hpp"

#include <cctype>
#include <cstdlib>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

constexpr long kMaxExponent = 100000;  // keeps 10^e small enough to build exactly

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char ch : s)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  return true;
}

/// Decimal digits to an integer. Leading zeros are dropped first: GMP reads "025" as octal.
BigInt parse_digits(std::string_view s) {
  const auto first = s.find_first_not_of('0');
  return first == std::string_view::npos ? BigInt(0) : BigInt(std::string(s.substr(first)));
}

BigInt pow10(long e) {
  BigInt r = 1;
  BigInt base = 10;
  while (e > 0) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

}  // namespace

Rational parse_rational(std::string_view text, std::string_view parameter) {
  const std::string shown = text.empty() ? std::string("empty") : quote(text);
  auto fail = [&]() -> Rational {
    throw invalid_argument(parameter, shown,
                           "a finite number written as an integer, a fraction p/q, a decimal or "
                           "scientific notation (e.g. 3/10, -0.25, 1e-5)");
  };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return fail();

  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    auto num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den)) return fail();
    BigInt q = parse_digits(den);
    if (q == 0)
      throw invalid_argument(parameter, shown, "a fraction with a non-zero denominator");
    Rational r(parse_digits(num), q);
    return negative ? Rational(-r) : r;
  }

  long exponent = 0;
  if (auto e = s.find_first_of("eE"); e != std::string_view::npos) {
    std::string_view exp_text = s.substr(e + 1);
    bool exp_negative = false;
    if (!exp_text.empty() && (exp_text.front() == '+' || exp_text.front() == '-')) {
      exp_negative = exp_text.front() == '-';
      exp_text.remove_prefix(1);
    }
    if (!all_digits(exp_text) || exp_text.size() > 7) return fail();
    exponent = std::strtol(std::string(exp_text).c_str(), nullptr, 10);
    if (exponent > kMaxExponent) return fail();
    if (exp_negative) exponent = -exponent;
    s = s.substr(0, e);
  }
  std::string_view int_part = s, frac_part;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    int_part = s.substr(0, dot);
    frac_part = s.substr(dot + 1);
  }
  if (int_part.empty() && frac_part.empty()) return fail();
  if (!int_part.empty() && !all_digits(int_part)) return fail();
  if (!frac_part.empty() && !all_digits(frac_part)) return fail();

  BigInt mantissa = parse_digits(std::string(int_part) + std::string(frac_part));
  exponent -= static_cast<long>(frac_part.size());
  Rational r = exponent >= 0 ? Rational(mantissa * pow10(exponent))
                             : Rational(mantissa, pow10(-exponent));
  return negative ? Rational(-r) : r;
}

BigInt pow2(unsigned long d) {
  BigInt r = 1;
  r <<= d;
  return r;
}

BigInt floor_of(const Rational& x) {
  BigInt num = numerator(x), den = denominator(x);  // den > 0 by GMP's canonical form
  BigInt q = num / den;                              // truncates toward zero
  if (num < 0 && q * den != num) q -= 1;
  return q;
}

std::string to_string(const Rational& x) {
  if (denominator(x) == 1) return numerator(x).str();
  return numerator(x).str() + "/" + denominator(x).str();
}

double to_double(const Rational& x) { return x.convert_to<double>(); }

}  // namespace corbin
