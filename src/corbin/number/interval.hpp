#pragma once
// Certified real arithmetic. `Real` is an MPFR float, `Interval` an MPFI interval whose
// endpoints are rounded outward, so every computed interval encloses the true value. A branch
// that depends on a transcendental quantity (a floor, a comparison) is decided only when the
// enclosing interval settles it; otherwise `corbin::undecidable` is raised.

#include <boost/multiprecision/mpfi.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <string>

#include "corbin/number/rational.hpp"

namespace corbin {

using Real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<0>,
                                           boost::multiprecision::et_off>;
using Interval = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<0>,
                                               boost::multiprecision::et_off>;

/// Sets the working precision (in bits) of Real and Interval for its lifetime; restores the
/// previous one on exit. Values created inside carry this precision.
class PrecisionScope {
 public:
  explicit PrecisionScope(unsigned bits);
  ~PrecisionScope();
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  unsigned saved_real_, saved_interval_;
};

/// Worker threads and the working precision. Boost keeps the precision new values take in one
/// process-wide variable, while MPFR keeps its exponent range per thread. So while threads share
/// work (run_on_threads) the precision is held where the caller left it: a PrecisionScope asking
/// for another, on any thread, throws std::logic_error (it would change the precision of the
/// values every other thread is creating: a race whose loser computed a binomial window's
/// log-gamma at 32 896 bits instead of 192, minutes instead of a second). Code that needs another
/// precision on a worker sets it on its own values (mpfi_set_prec). And each worker starts from
/// the caller's exponent range (enter()).
class WorkerNumerics {
 public:
  WorkerNumerics();  ///< captures the caller's exponent range and holds the precision
  ~WorkerNumerics();
  WorkerNumerics(const WorkerNumerics&) = delete;
  WorkerNumerics& operator=(const WorkerNumerics&) = delete;
  /// On a worker thread: the caller's exponent range, for the rest of the thread.
  void enter() const;

 private:
  long emin_, emax_;
};

/// A floor under every default working precision (default_precision_bits, hence every budget's
/// precision_bits) for its lifetime, process-wide (the evaluations it covers may run on several
/// threads): a bounds checker's requested precision raises what each certified evaluation starts
/// from, so that an enclosure too wide to decide can be narrowed. Nested floors restore the
/// previous one.
class PrecisionFloor {
 public:
  explicit PrecisionFloor(unsigned bits);
  ~PrecisionFloor();
  PrecisionFloor(const PrecisionFloor&) = delete;
  PrecisionFloor& operator=(const PrecisionFloor&) = delete;

 private:
  unsigned saved_;
};
/// The current floor (0: none).
unsigned precision_floor_bits();

/// Widens MPFR's exponent range to the largest it supports (about 2^±62) for its lifetime, so
/// that values such as e^(10^9) or Φ(−10^9) are numbers rather than overflows and underflows
/// (the default range stops near 2^±(2^30)). Restores the previous range.
class WideExponentScope {
 public:
  WideExponentScope();
  ~WideExponentScope();
  WideExponentScope(const WideExponentScope&) = delete;
  WideExponentScope& operator=(const WideExponentScope&) = delete;

 private:
  long saved_min_, saved_max_;
};

/// The working precision in bits.
unsigned working_precision_bits();

Interval interval_from(const Rational& x);  ///< smallest enclosure of x at working precision
Interval interval_from(const BigInt& x);    ///< exact when |x| < 2^precision
Interval interval_hull(const Real& lo, const Real& hi);

Real lower_of(const Interval& x);
Real upper_of(const Interval& x);
/// x as the double at or below it, or at or above it (a bound stays a bound).
double to_double_down(const Real& x);
double to_double_up(const Real& x);
Real midpoint_of(const Interval& x);

/// floor(x), certified: both endpoints must have the same floor, else undecidable.
BigInt certified_floor(const Interval& x, const char* what);

/// x < y, certified: true if hi(x) < lo(y), false if lo(x) >= hi(y), else undecidable.
bool certified_less(const Interval& x, const Interval& y, const char* what);

/// Decimal text with `digits` significant digits (round to nearest).
std::string to_decimal(const Real& x, int digits = 30);

/// Exact rational value of a finite Real.
Rational to_rational(const Real& x);
/// Exact rational value of a finite double (every double is a dyadic rational).
Rational to_rational(double x);

}  // namespace corbin
