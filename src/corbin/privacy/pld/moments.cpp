#include "corbin/privacy/pld/moments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "corbin/number/mp.hpp"

namespace corbin {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

const std::vector<double>& moment_orders() {
  static const std::vector<double> orders = [] {
    std::vector<double> out;
    for (int i = -30; i <= 10; ++i) out.push_back(std::ldexp(1.0, i));
    return out;
  }();
  return orders;
}

LogMoments unbounded_moments() {
  return LogMoments(moment_orders().size(), kInf);
}

LogMoments log_of(const std::vector<double>& moments) {
  LogMoments out(moments.size());
  Mp x(64), y(64);
  for (std::size_t i = 0; i < moments.size(); ++i) {
    if (!(moments[i] < kInf)) {
      out[i] = kInf;
      continue;
    }
    mpfr_set_d(x.get(), std::max(1.0, moments[i]), MPFR_RNDU);  // a moment is at least 1 (Hölder)
    mpfr_log(y.get(), x.get(), MPFR_RNDU);
    out[i] = y.up();
  }
  return out;
}

LogMoments add(const LogMoments& a, const LogMoments& b) {
  LogMoments out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    Mp x(a[i], 64);
    mpfr_add_d(x.get(), x.get(), b[i], MPFR_RNDU);
    out[i] = x.up();
  }
  return out;
}

LogMoments mixture(const LogMoments& a, const LogMoments& b, const Rational& w) {
  if (w == 1) return a;
  if (w == 0) return b;
  const Mp wa = Mp::of(w, MPFR_RNDU), wb = Mp::of(Rational(1) - w, MPFR_RNDU);
  LogMoments out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isinf(a[i]) || std::isinf(b[i])) {
      out[i] = kInf;
      continue;
    }
    // ln(w e^a + (1 − w) e^b) = top + ln(w e^(a − top) + (1 − w) e^(b − top)), each step up.
    const double top = std::max(a[i], b[i]);
    Mp x(128), y(128);
    mpfr_set_d(x.get(), a[i], MPFR_RNDU);
    mpfr_sub_d(x.get(), x.get(), top, MPFR_RNDU);
    mpfr_exp(x.get(), x.get(), MPFR_RNDU);
    mpfr_mul(x.get(), x.get(), wa.get(), MPFR_RNDU);
    mpfr_set_d(y.get(), b[i], MPFR_RNDU);
    mpfr_sub_d(y.get(), y.get(), top, MPFR_RNDU);
    mpfr_exp(y.get(), y.get(), MPFR_RNDU);
    mpfr_mul(y.get(), y.get(), wb.get(), MPFR_RNDU);
    mpfr_add(x.get(), x.get(), y.get(), MPFR_RNDU);
    mpfr_log(x.get(), x.get(), MPFR_RNDU);
    mpfr_add_d(x.get(), x.get(), top, MPFR_RNDU);
    out[i] = std::min(top, x.up());  // a mean of the two is at most the larger
  }
  return out;
}

LogMoments times(const LogMoments& a, std::uint64_t k) {
  LogMoments out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    Mp x(a[i], 64);
    mpfr_mul_ui(x.get(), x.get(), static_cast<unsigned long>(k), MPFR_RNDU);
    out[i] = x.up();
  }
  return out;
}

namespace {

/// λ ln(1 − 1/λ) − ln(λ − 1) = μ ln μ − (1 + μ) ln(1 + μ) for μ = λ − 1, rounded up.
void conversion_up(double mu, Mp& out) {
  Mp m(mu, 128), a(128), b(128), one_plus(128);
  mpfr_log(a.get(), m.get(), MPFR_RNDU);
  mpfr_mul(a.get(), a.get(), m.get(), MPFR_RNDU);  // μ ln μ (< 0 for μ < 1)
  mpfr_add_ui(one_plus.get(), m.get(), 1, MPFR_RNDD);
  mpfr_log(b.get(), one_plus.get(), MPFR_RNDD);
  mpfr_mul(b.get(), b.get(), one_plus.get(), MPFR_RNDD);  // (1 + μ) ln(1 + μ), bounded below
  mpfr_sub(out.get(), a.get(), b.get(), MPFR_RNDU);
}

}  // namespace

double eps_from_moments(const LogMoments& m, const Rational& delta) {
  const auto& orders = moment_orders();
  double best = kInf;
  const Mp d = Mp::of(delta, MPFR_RNDD, 128);
  Mp log_delta(128), num(128), c(128);
  mpfr_log(log_delta.get(), d.get(), MPFR_RNDD);  // ln δ bounded below, so −ln δ above
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!(m[i] < kInf)) continue;
    conversion_up(orders[i], c);
    mpfr_set_d(num.get(), m[i], MPFR_RNDU);
    mpfr_add(num.get(), num.get(), c.get(), MPFR_RNDU);
    mpfr_sub(num.get(), num.get(), log_delta.get(), MPFR_RNDU);
    mpfr_div_d(num.get(), num.get(), orders[i], MPFR_RNDU);
    best = std::min(best, std::max(0.0, num.up()));
  }
  return best;
}

double delta_from_moments(const LogMoments& m, const Rational& eps) {
  const auto& orders = moment_orders();
  double best = 1;
  const Mp e = Mp::of(eps, MPFR_RNDD, 128);
  Mp x(128), c(128), t(128);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!(m[i] < kInf)) continue;
    conversion_up(orders[i], c);
    mpfr_mul_d(t.get(), e.get(), orders[i], MPFR_RNDD);  // (λ − 1) ε bounded below
    mpfr_set_d(x.get(), m[i], MPFR_RNDU);
    mpfr_add(x.get(), x.get(), c.get(), MPFR_RNDU);
    mpfr_sub(x.get(), x.get(), t.get(), MPFR_RNDU);
    mpfr_exp(x.get(), x.get(), MPFR_RNDU);
    best = std::min(best, x.up());
  }
  return best;
}

}  // namespace corbin
