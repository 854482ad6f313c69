#pragma once
// A plain MPFR scalar for the few transcendental values per grid point of the accountant's fast
// path (privacy/pld, privacy/loss_grid): each operation names its rounding direction, and the
// results leave as doubles rounded in a named direction. Precision 128 bits unless given.

#include <mpfr.h>

#include <cstdint>

#include "corbin/number/rational.hpp"

namespace corbin {

class Mp {
 public:
  explicit Mp(int bits = 128) {
    mpfr_init2(v_, bits);
    mpfr_set_zero(v_, 1);
  }
  Mp(double) = delete;  // a value needs its precision: Mp(x, bits)
  Mp(double x, int bits) {
    mpfr_init2(v_, bits);
    mpfr_set_d(v_, x, MPFR_RNDN);  // exact: 53 bits fit
  }
  Mp(const Mp& o) {
    mpfr_init2(v_, mpfr_get_prec(o.v_));
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  Mp& operator=(const Mp& o) {
    mpfr_set(v_, o.v_, MPFR_RNDN);
    return *this;
  }
  ~Mp() { mpfr_clear(v_); }
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  double down() const { return mpfr_get_d(v_, MPFR_RNDD); }
  double up() const { return mpfr_get_d(v_, MPFR_RNDU); }

  /// i·2^scale exactly (i below 2^63).
  static Mp grid_point(std::int64_t i, int scale, int bits = 128) {
    Mp out(bits);
    mpfr_set_si(out.get(), static_cast<long>(i), MPFR_RNDN);
    mpfr_mul_2si(out.get(), out.get(), scale, MPFR_RNDN);
    return out;
  }
  /// x rounded in direction `rnd`.
  static Mp of(const Rational& x, mpfr_rnd_t rnd, int bits = 128) {
    Mp out(bits);
    mpfr_set_q(out.get(), x.backend().data(), rnd);
    return out;
  }

 private:
  mpfr_t v_;
};

}  // namespace corbin
