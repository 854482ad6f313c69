// T4m (Thm 4): the MSE bound under dropout, at the two points where Thm4.v refutes it. The MSE is
// that of the survivors' average (1/N) Σ_{F_i = 1} W̄_i at d → ∞: a pair with two survivors uses
// CorBinQ, a pair with one leaves it on LDPQ (D1). With every input at c, a full pair's MSE is 0
// and a lone survivor's r²α², so given S lone survivors among N the MSE is S r²α²/N² (0 when
// nobody survives).
//
// As printed (Thm4.v, T4m): nothing in the preconditions keeps θ > 0, and at n = 3992, p = 1/2,
// δ = 11/1000, δ1 = 1/100, α = 11 every precondition holds, θ < 0 and the bound is negative.
// With θ > 0 too (T4m_theta_pos): at n = 20000, p = 9/10, δ = 1/10, δ1 = 10⁻⁶, α = 11, the MSE is
// at least r²α²(3M E[S] − 2E[SN])/M³ for any M > 0 (1/N² lies above its tangent at M; both sides
// are 0 when S = 0), whose moments are exact: per pair, one survivor w.p. q1 = 2p(1 − p), two w.p.
// q2 = (1 − p)², so E[S] = K q1 and E[SN] = K q1 + K(K − 1) q1 (2q2 + q1) over K pairs.

#include "claims.hpp"
#include "corbin/privacy/formulas/dropout.hpp"

namespace corbin::audit {

namespace {

DropoutSetting setting(unsigned long n, Rational p, Rational delta, Rational delta1) {
  DropoutSetting s;
  s.n = n;
  s.p = std::move(p);
  s.delta = std::move(delta);
  s.delta1 = std::move(delta1);
  s.radius = Rational(1);
  s.budget = Budget::make(Budget::Kind::alpha, 11);
  return s;
}

Json describe(const DropoutSetting& s, const DropoutResult& t) {
  Json w = Json::object();
  put_dropout_setting(w, s, Rational(11));
  put(w, "center", Rational(0));
  put(w, "every_input", Rational(0));
  put(w, "gamma", t.gamma);
  put(w, "theta", t.theta);
  w["preconditions_met"] = t.gamma_in_range && t.eps_u && t.eps_u->precondition;
  if (t.eps_u) put(w, "gamma_used", to_rational(lower_of(t.gamma)));  // the γ Eq. (th:3:1) was evaluated at
  put(w, "printed_bound", t.mse_bound);
  return w;
}

/// r²α²(3M E[S] − 2E[SN])/M³ at M = E[N] = n(1 − p), exact: a lower bound on the MSE. The
/// identity, the tangent point and both moments go into `w`, for a reader to follow each step.
Rational mse_lower_bound(const DropoutSetting& s, const Rational& alpha, Json& w) {
  const Rational pairs(BigInt(static_cast<long long>(s.n / 2)));
  const Rational q1 = 2 * s.p * (1 - s.p), q2 = (1 - s.p) * (1 - s.p);
  const Rational mean_s = pairs * q1, mean_sn = pairs * q1 + pairs * (pairs - 1) * q1 * (2 * q2 + q1);
  const Rational m = Rational(BigInt(static_cast<long long>(s.n))) * (1 - s.p);
  w["mse_identity"] = "every input at c: a pair with two survivors errs by 0 (CorBinQ), a lone survivor by r²α² "
                      "(LDPQ), so MSE = r²α² E[S/N²] with S lone survivors among N (0 when N = 0)";
  w["tangent_rule"] = "1/N² >= (3M − 2N)/M³ for N, M > 0 (the tangent of the convex 1/N² at M), so "
                      "MSE >= r²α²(3M E[S] − 2E[SN])/M³";
  put(w, "tangent_point", m);
  put(w, "lone_probability", q1);
  put(w, "both_probability", q2);
  put(w, "mean_lone_survivors", mean_s);
  put(w, "mean_lone_times_survivors", mean_sn);
  return s.radius * s.radius * alpha * alpha * (3 * m * mean_s - 2 * mean_sn) / (m * m * m);
}

}  // namespace

ClaimResult check_t4m(const Grid&) {
  ClaimResult out;
  out.id = "T4m";
  out.statement = "Thm 4: lim MSE of the survivors' average <= γ′r²α²/(nθ) + 8r²α²δ1 + ((1 − γ)/(2nθ)) r²((√2−1)α+1)((√2+1)α−1).";
  out.method = "At the inputs of Thm4.v's two refutations: the printed bound and every precondition in MPFI; the MSE "
               "(positive at the first point, bounded below exactly by a tangent line of 1/N² at the second).";
  PrecisionScope scope(256);
  // As printed: θ < 0 makes the bound negative while an MSE is never negative.
  const DropoutSetting a = setting(3992, Rational(1, 2), Rational(11, 1000), Rational(1, 100));
  const DropoutResult ta = theorem4(a);
  Json wa = describe(a, ta);
  const bool negative = upper_of(ta.mse_bound) < 0;
  wa["bound_negative"] = negative;
  const bool met_a = wa["preconditions_met"].get<bool>();
  out.certificate["printed"] = wa;
  out.reading = "printed";
  out.verdict = met_a && negative ? Verdict::fails : Verdict::undecided;
  // With θ > 0 as well.
  const DropoutSetting b = setting(20000, Rational(9, 10), Rational(1, 10), Rational(1, 1000000));
  const DropoutResult tb = theorem4(b);
  Json wb = describe(b, tb);
  const Rational lower = mse_lower_bound(b, Rational(11), wb);
  put(wb, "mse_lower_bound", lower);
  wb["theta_positive"] = tb.theta_positive;
  const bool above = certified_less(tb.mse_bound, interval_from(lower), "T4m: the printed bound against the MSE");
  const bool met_b = wb["preconditions_met"].get<bool>() && tb.theta_positive;
  out.certificate["theta_positive"] = wb;
  out.also.emplace_back("theta_pos", met_b && above ? Verdict::fails : Verdict::undecided);
  out.finding = std::string() + "at n = 3992, p = 1/2, δ = 11/1000, δ1 = 1/100, α = 11 every precondition holds, θ < 0 and the printed "
                "bound is negative; with θ > 0 too (n = 20000, p = 9/10, δ = 1/10, δ1 = 10⁻⁶) the MSE is at least " +
                decimals(lower, 4, false) + " > the bound " +
                decimals(to_rational(upper_of(tb.mse_bound)), 4, true) +
                ": the proof divides by n·nθ where N² belongs, and centres N/n at p(1 − p) instead of 1 − p";
  out.result = out.finding + ". Read as every sufficiently large n, it holds with δ1 fixed before n and fails when δ1 may be "
                             "chosen after n, θ > 0 or not (Thm4Large.v; readings large_n_*).";
  out.recheck = "recheck_certificates.py recomputes θ, the bound, the preconditions and the moments exactly or in decimal.";
  return out;
}

}  // namespace corbin::audit
