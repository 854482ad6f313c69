#pragma once
// One interface over the three number types every formula is instantiated for:
//   Rational  exact (inputs and α rational),
//   Interval  certified enclosures (α transcendental, from a given ε),
//   double    fast path, tested against the other two.
// Formulas are written once against NumTraits<T>; branch decisions go through `floor` and
// `less`, which are exact for Rational, certified for Interval and plain for double.

#include <algorithm>
#include <cmath>
#include <string>

#include "corbin/number/error.hpp"
#include "corbin/number/interval.hpp"
#include "corbin/number/rational.hpp"

namespace corbin {

template <class T>
struct NumTraits;

template <>
struct NumTraits<Rational> {
  static constexpr bool kExact = true;
  static constexpr const char* kName = "rational";
  static Rational from(const Rational& x) { return x; }
  static Rational from(const BigInt& x) { return Rational(x); }
  static BigInt floor(const Rational& x, const char*) { return floor_of(x); }
  static bool less(const Rational& a, const Rational& b, const char*) { return a < b; }
  static bool is_zero(const Rational& x) { return x == 0; }
  static Rational max(const Rational& a, const Rational& b) { return a < b ? b : a; }
  static Rational min(const Rational& a, const Rational& b) { return a < b ? a : b; }
  static double approx(const Rational& x) { return to_double(x); }
};

template <>
struct NumTraits<Interval> {
  static constexpr bool kExact = false;
  static constexpr const char* kName = "interval";
  static Interval from(const Rational& x) { return interval_from(x); }
  static Interval from(const BigInt& x) { return interval_from(x); }
  static BigInt floor(const Interval& x, const char* what) { return certified_floor(x, what); }
  static bool less(const Interval& a, const Interval& b, const char* what) {
    return certified_less(a, b, what);
  }
  /// Certainly zero (a point interval at 0); an enclosure straddling 0 is undecidable.
  static bool is_zero(const Interval& x) {
    if (upper_of(x) == 0 && lower_of(x) == 0) return true;
    if (lower_of(x) > 0 || upper_of(x) < 0) return false;
    throw undecidable("whether a probability is zero is undecided at " +
                      std::to_string(working_precision_bits()) + " bits; raise the working precision");
  }
  /// Enclosure of max(a, b) without deciding which is larger.
  static Interval max(const Interval& a, const Interval& b) {
    return interval_hull(std::max(lower_of(a), lower_of(b)), std::max(upper_of(a), upper_of(b)));
  }
  /// Enclosure of min(a, b) without deciding which is smaller.
  static Interval min(const Interval& a, const Interval& b) {
    return interval_hull(std::min(lower_of(a), lower_of(b)), std::min(upper_of(a), upper_of(b)));
  }
  static double approx(const Interval& x) { return midpoint_of(x).convert_to<double>(); }
};

template <>
struct NumTraits<double> {
  static constexpr bool kExact = false;
  static constexpr const char* kName = "double";
  static double from(const Rational& x) { return to_double(x); }
  static double from(const BigInt& x) { return x.convert_to<double>(); }
  static BigInt floor(double x, const char* what) {
    if (!std::isfinite(x))
      throw invalid_argument(what, describe(x), "finite in the double fast path");
    return BigInt(std::floor(x));
  }
  static bool less(double a, double b, const char*) { return a < b; }
  static bool is_zero(double x) { return x == 0.0; }
  static double max(double a, double b) { return std::max(a, b); }
  static double min(double a, double b) { return std::min(a, b); }
  static double approx(double x) { return x; }
};

/// A real x split as index + frac with index = floor(x) and frac in [0, 1). Callers may also
/// build cells with frac = 1 to denote the limit from the left of index + 1.
template <class T>
struct Cell {
  BigInt index;
  T frac;
};

template <class T>
Cell<T> split(const T& x, const char* what) {
  BigInt index = NumTraits<T>::floor(x, what);
  return {index, T(x - NumTraits<T>::from(index))};
}

}  // namespace corbin
