#pragma once
// Exact numbers: big integers and rationals on GMP, expression templates off so that `auto`
// always holds a value, never a lazy expression.

#include <boost/multiprecision/gmp.hpp>
#include <string>
#include <string_view>

namespace corbin {

using BigInt =
    boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

/// Parses "3/10", "-0.25", "1e-5", "7" into the exact rational they denote. Decimal and
/// scientific notation are exact (0.1 is 1/10). Anything else (empty, "nan", "inf", "1/0",
/// hex, trailing text, |exponent| > 100000) raises corbin::invalid_argument naming `parameter`.
Rational parse_rational(std::string_view text, std::string_view parameter);

/// 2^d as a big integer; exact for every d.
BigInt pow2(unsigned long d);

/// Largest integer <= x; exact.
BigInt floor_of(const Rational& x);

/// "p/q" in lowest terms, or "p" when q = 1 (the JSON contract of DESIGN.md).
std::string to_string(const Rational& x);

/// Nearest double (round to nearest; exact rationals with huge terms are handled by GMP).
double to_double(const Rational& x);

}  // namespace corbin
