#include "corbin/number/interval.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <atomic>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

unsigned digits10_for_bits(unsigned bits) {
  // Boost stores variable precision in decimal digits and converts back with
  // bits = ceil(digits10 * log2(10)) + slack, so this never lowers the requested bits.
  return static_cast<unsigned>(std::ceil(bits * 0.30102999566398120)) + 1;
}

/// How many WorkerNumerics are alive (nested thread pools included).
std::atomic<unsigned> workers_running{0};

}  // namespace

PrecisionScope::PrecisionScope(unsigned bits)
    : saved_real_(Real::default_precision()), saved_interval_(Interval::default_precision()) {
  // The precision already held when it has these bits (the common "at least the working
  // precision" scope): digits10_for_bits rounds up, so converting back and forth would add bits
  // at every nesting.
  const bool held = saved_real_ == saved_interval_ &&
                    boost::multiprecision::detail::digits10_2_2(saved_interval_) == bits;
  const unsigned d10 = held ? saved_interval_ : digits10_for_bits(bits);
  if (workers_running.load() > 0 && (d10 != saved_real_ || d10 != saved_interval_))
    throw std::logic_error("the working precision changed to " + std::to_string(bits) +
                           " bits while threads share it (WorkerNumerics)");
  Real::default_precision(d10);
  Interval::default_precision(d10);
}

PrecisionScope::~PrecisionScope() {
  Real::default_precision(saved_real_);
  Interval::default_precision(saved_interval_);
}

WideExponentScope::WideExponentScope() : saved_min_(mpfr_get_emin()), saved_max_(mpfr_get_emax()) {
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
}

WideExponentScope::~WideExponentScope() {
  mpfr_set_emin(saved_min_);
  mpfr_set_emax(saved_max_);
}

WorkerNumerics::WorkerNumerics() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) { ++workers_running; }
WorkerNumerics::~WorkerNumerics() { --workers_running; }

void WorkerNumerics::enter() const {
  mpfr_set_emin(emin_);
  mpfr_set_emax(emax_);
}

namespace {
std::atomic<unsigned> floor_bits{0};
}  // namespace

PrecisionFloor::PrecisionFloor(unsigned bits) : saved_(floor_bits.exchange(bits)) {}
PrecisionFloor::~PrecisionFloor() { floor_bits.store(saved_); }
unsigned precision_floor_bits() { return floor_bits.load(); }

unsigned working_precision_bits() {
  Interval probe;
  return static_cast<unsigned>(mpfi_get_prec(probe.backend().data()));
}

Interval interval_from(const Rational& x) {
  Interval r;
  mpfi_set_q(r.backend().data(), x.backend().data());
  return r;
}

Interval interval_from(const BigInt& x) {
  Interval r;
  mpfi_set_z(r.backend().data(), x.backend().data());
  return r;
}

Interval interval_hull(const Real& lo, const Real& hi) {
  Interval r;
  mpfi_interv_fr(r.backend().data(), lo.backend().data(), hi.backend().data());
  return r;
}

Real lower_of(const Interval& x) {
  Real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_get_left(r.backend().data(), x.backend().data());
  return r;
}

Real upper_of(const Interval& x) {
  Real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_get_right(r.backend().data(), x.backend().data());
  return r;
}

double to_double_down(const Real& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDD); }
double to_double_up(const Real& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDU); }

Real midpoint_of(const Interval& x) {
  Real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_mid(r.backend().data(), x.backend().data());
  return r;
}

BigInt certified_floor(const Interval& x, const char* what) {
  if (mpfi_nan_p(x.backend().data()) || !mpfi_bounded_p(x.backend().data()))
    throw undecidable(std::string("floor of ") + what + ": enclosure is not finite");
  BigInt lo, hi;
  mpfr_get_z(lo.backend().data(), lower_of(x).backend().data(), MPFR_RNDD);
  mpfr_get_z(hi.backend().data(), upper_of(x).backend().data(), MPFR_RNDD);
  if (lo != hi) {
    std::ostringstream msg;
    msg << "floor of " << what << " is undecided at " << working_precision_bits()
        << " bits: the enclosure [" << to_decimal(lower_of(x), 20) << ", "
        << to_decimal(upper_of(x), 20) << "] contains an integer; raise the working precision";
    throw undecidable(msg.str());
  }
  return lo;
}

bool certified_less(const Interval& x, const Interval& y, const char* what) {
  if (upper_of(x) < lower_of(y)) return true;
  if (lower_of(x) >= upper_of(y)) return false;
  std::ostringstream msg;
  msg << "comparison " << what << " is undecided at " << working_precision_bits()
      << " bits (the enclosures overlap); raise the working precision";
  throw undecidable(msg.str());
}

std::string to_decimal(const Real& x, int digits) {
  std::ostringstream out;
  out.precision(digits);
  out << x;
  return out.str();
}

Rational to_rational(const Real& x) {
  if (!mpfr_number_p(x.backend().data()))
    throw invalid_argument("value", to_decimal(x), "finite to convert to a rational");
  // Zero first: mpfr_get_z_2exp reports it with the minimum exponent (about −2^30), and 2^−e
  // would then take 128 MiB.
  if (mpfr_zero_p(x.backend().data())) return Rational(0);
  BigInt mant;
  const mpfr_exp_t e = mpfr_get_z_2exp(mant.backend().data(), x.backend().data());
  if (e >= 0) return Rational(mant * pow2(static_cast<unsigned long>(e)));
  return Rational(mant, pow2(static_cast<unsigned long>(-e)));
}

}  // namespace corbin

namespace corbin {

Rational to_rational(double x) {
  Real r;  // at 53 bits, which hold any double, whatever the working precision
  mpfr_set_prec(r.backend().data(), 53);
  mpfr_set_d(r.backend().data(), x, MPFR_RNDN);
  return to_rational(r);
}

}  // namespace corbin
