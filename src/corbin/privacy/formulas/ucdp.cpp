#include "corbin/privacy/formulas/ucdp.hpp"

#include <algorithm>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin {
namespace {

Interval iv(const Rational& x) { return interval_from(x); }
Interval iv(unsigned long x) { return interval_from(BigInt(x)); }
Interval ln(const Interval& x) { return Interval(log(x)); }
Interval root(const Interval& x) { return Interval(sqrt(x)); }

/// Decides lhs >= max(rhs) with certified comparisons.
bool at_least_all(const Interval& lhs, const std::vector<NamedValue>& rhs) {
  return std::all_of(rhs.begin(), rhs.end(), [&](const NamedValue& v) {
    return !certified_less(lhs, v.value, "the UCDP precondition");
  });
}

Interval sum_of(const std::vector<NamedValue>& terms) {
  Interval total = iv(Rational(0));
  for (const NamedValue& t : terms) total = Interval(total + t.value);
  return total;
}

Rational n_gamma_minus_one(const UcdpSetting& s) {
  return Rational(Rational(BigInt(s.n)) * s.gamma - 1);
}

}  // namespace

void check_ucdp_setting(const UcdpSetting& s) {
  if (s.m < 1) throw invalid_argument("m", std::to_string(s.m), "at least 1");
  if (s.n < 2) throw invalid_argument("n", std::to_string(s.n), "at least 2");
  if (s.gamma <= 0 || s.gamma > 1)
    throw invalid_argument("gamma", to_string(s.gamma), "in (0, 1]");
  if (Rational(BigInt(s.n)) * s.gamma < 2)
    throw invalid_argument("gamma", to_string(s.gamma),
                           "such that n·γ >= 2 (the proof's N = nγ − 1 must be at least 1; n = " +
                               std::to_string(s.n) + ")");
  if (s.delta <= 0 || s.delta >= 1)
    throw invalid_argument("delta", to_string(s.delta), "in (0, 1)");
  if (s.radius <= 0) throw invalid_argument("radius", to_string(s.radius), "positive");
}

UcdpFormula theorem3_printed(const UcdpSetting& s) {
  check_ucdp_setting(s);
  const Interval a = s.budget.alpha_interval(), a2 = Interval(a * a);
  const Interval big_n = iv(n_gamma_minus_one(s)), m = iv(s.m), delta = iv(s.delta);
  const Interval l125 = ln(Interval(iv(Rational(5, 4)) / delta));
  const Interval l10 = ln(Interval(iv(Rational(10)) / delta));
  const Interval l20m = ln(Interval(iv(Rational(20)) * m / delta));
  const Interval e_p = Interval(1 + 1 / a2), b_p = Interval(e_p / 3 + 1 / a);
  const Interval scale = Interval(iv(s.radius) * a);  // the printed formula gives ε_u/(rα)
  UcdpFormula f;
  f.parameters = {{"alpha", a}, {"e_p", e_p}, {"b_p", b_p}, {"N", big_n}};
  f.terms = {
      {"sqrt_term", Interval(scale * root(Interval(8 * m * l125 / (big_n * e_p))))},
      {"log_term", Interval(scale * 8 * (l125 + l20m * l10) / (3 * big_n))},
      {"b_p_term",
       Interval(scale * 4 * b_p * root(Interval(2 * m)) * (iv(Rational(7, 4)) + iv(Rational(15, 4)) / a2) *
                root(l10) / (big_n * (1 - delta / 10) * e_p))}};
  f.eps_u = sum_of(f.terms);
  f.precondition_lhs = Interval(big_n * (iv(Rational(1, 4)) - 1 / (4 * a2)));
  f.precondition_rhs = {{"23_log_m_over_delta", Interval(23 * ln(Interval(m / delta)))},
                        {"2_r_alpha", Interval(2 * scale)}};
  f.precondition = at_least_all(f.precondition_lhs, f.precondition_rhs);
  return f;
}

UcdpFormula cpsgd_theorem1(const CpsgdInput& in) {
  // REFERENCES.md, cpSGD Thm 1:
  //   ε = Δ2 √(2 ln(1.25/δ)) / (s √(Np(1−p)))
  //     + (Δ2 c_p √(ln(10/δ)) + Δ1 b_p) / (s N p(1−p) (1 − δ/10))
  //     + ((2/3) Δ∞ ln(1.25/δ) + Δ∞ d_p ln(20 d/δ) ln(10/δ)) / (s N p(1−p)),
  // valid if N p (1 − p) >= max(23 ln(10 d/δ), 2Δ∞/s).
  const Interval& p = in.p;
  const Interval q = Interval(1 - p), delta = iv(in.delta), dim = iv(in.dim);
  const Interval sq = Interval(p * p + q * q);
  const Interval b_p = Interval(iv(Rational(2, 3)) * sq + 1 - 2 * p);
  const Interval c_p = Interval(root(iv(Rational(2))) *
                                (3 * p * p * p + 3 * q * q * q + 2 * p * p + 2 * q * q));
  const Interval d_p = Interval(iv(Rational(4, 3)) * sq);
  const Interval npq = Interval(in.big_n * p * q);
  const Interval l125 = ln(Interval(iv(Rational(5, 4)) / delta));
  const Interval l10 = ln(Interval(10 / delta));
  const Interval l20d = ln(Interval(20 * dim / delta));
  UcdpFormula f;
  f.parameters = {{"N", in.big_n},          {"p", p},           {"s", in.s},
                  {"Delta_1", in.delta1},   {"Delta_2", in.delta2}, {"Delta_inf", in.delta_inf},
                  {"b_p", b_p},             {"c_p", c_p},       {"d_p", d_p},
                  {"Np(1-p)", npq}};
  f.terms = {
      {"gaussian_term", Interval(in.delta2 * root(Interval(2 * l125)) / (in.s * root(npq)))},
      {"b_p_c_p_term", Interval((in.delta2 * c_p * root(l10) + in.delta1 * b_p) /
                                (in.s * npq * (1 - delta / 10)))},
      {"d_p_term", Interval((iv(Rational(2, 3)) * in.delta_inf * l125 +
                             in.delta_inf * d_p * l20d * l10) /
                            (in.s * npq))}};
  f.eps_u = sum_of(f.terms);
  f.precondition_lhs = npq;
  f.precondition_rhs = {{"23_log_10d_over_delta", Interval(23 * ln(Interval(10 * dim / delta)))},
                        {"2_Delta_inf_over_s", Interval(2 * in.delta_inf / in.s)}};
  f.precondition = at_least_all(f.precondition_lhs, f.precondition_rhs);
  return f;
}

UcdpFormula theorem3_cpsgd(const UcdpSetting& s, bool consistent_units) {
  check_ucdp_setting(s);
  const Interval a = s.budget.alpha_interval();
  const Interval ra = Interval(iv(s.radius) * a), m = iv(s.m);
  CpsgdInput in;
  in.big_n = iv(n_gamma_minus_one(s));
  in.p = Interval(iv(Rational(1, 2)) - 1 / (2 * a));
  in.s = consistent_units ? Interval(2 * ra) : iv(Rational(2));
  in.delta1 = Interval(2 * m * ra);
  in.delta2 = Interval(2 * root(m) * ra);
  in.delta_inf = Interval(2 * ra);
  in.dim = s.m;
  in.delta = s.delta;
  return cpsgd_theorem1(in);
}

}  // namespace corbin
