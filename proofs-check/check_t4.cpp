// T4 (Thm 4): dropout robustness: γ, γ', θ from Chebyshev, UCDP via Eq. (th:3:1), MSE bound.
// The proof's first Chebyshev step is refuted at a point where every precondition holds (Thm4.v,
// T4_step: n = 2400, p = 1/2, δ = 1/10, δ1 = 1/100, α = 11); the conclusion itself is refuted by
// T4u's witness (check_t4u.cpp).

#include "claims.hpp"
#include "corbin/privacy/formulas/dropout.hpp"

namespace corbin::audit {

ClaimResult check_t4(const Grid&) {
  ClaimResult out;
  out.id = "T4";
  out.statement = "Thm 4: with independent dropout p, CorBin-FL is (ε_u, δ)-UCDP with γ, γ', θ as printed, "
                  "and its MSE is bounded as printed.";
  out.method = "The printed γ, γ', θ and MSE bound in MPFI; the exact probability (binomial, rational) "
               "of each event the proof bounds by δ − δ1 with Chebyshev's inequality.";
  PrecisionScope scope(128);
  DropoutSetting s;
  s.n = 2400;
  s.p = Rational(1, 2);
  s.delta = Rational(1, 10);
  s.delta1 = Rational(1, 100);
  s.radius = Rational(1);
  s.budget = Budget::make(Budget::Kind::alpha, 11);
  const DropoutResult r = theorem4(s);
  const bool met = r.gamma_in_range && r.eps_u && r.eps_u->precondition;
  Json cx = Json::object();
  put_dropout_setting(cx, s, Rational(11));
  put(cx, "gamma", r.gamma);
  put(cx, "gamma_prime", r.gamma_prime);
  put(cx, "theta", r.theta);
  cx["preconditions_met"] = met;
  if (r.eps_u) put(cx, "gamma_used", to_rational(lower_of(r.gamma)));  // the γ Eq. (th:3:1) was evaluated at
  put(cx, "claimed_each", r.claimed);
  put(cx, "singles_outside", *r.singles_outside.exact);
  put(cx, "survivors_outside", *r.survivors_outside.exact);
  Json recheck = Json::object();
  recheck["kind"] = "binomial_outside";
  recheck["trials"] = s.n / 2;
  recheck["p"] = to_string(Rational(2 * s.p * (1 - s.p)));
  recheck["first_inside"] = (-certified_floor(Interval(-r.gamma * interval_from(BigInt(s.n))), "")).str();
  recheck["last_inside"] = certified_floor(Interval(r.gamma_prime * interval_from(BigInt(s.n))), "").str();
  recheck["probability"] = to_string(*r.singles_outside.exact);
  cx["recheck"] = Json::array({recheck});
  out.certificate["counterexample"] = cx;
  const bool fails = met && (*r.singles_outside.exact > r.claimed || *r.survivors_outside.exact > r.claimed);
  out.reading = "chebyshev_step";
  out.verdict = fails ? Verdict::fails : Verdict::undecided;
  Json conclusion = Json::object();
  double difference = 0;
  out.also.emplace_back("conclusion", t4u_count_witness(conclusion, difference));
  out.certificate["conclusion_witness"] = conclusion;
  out.finding = "the conclusion fails (T4u's witness) and the proof's Chebyshev step is false: the printed γ has half "
                "Chebyshev's width, and at n = 2400, p = 1/2, δ = 1/10, δ1 = 1/100, α = 11 (every precondition met) the "
                "broken pairs leave [γn, γ′n] with exact probability " +
                std::to_string(to_double(*r.singles_outside.exact)).substr(0, 6) +
                " > δ − δ1 = 0.09; θ is centred at p(1 − p) while a fraction 1 − p survives";
  out.result = out.finding + ".";
  out.recheck = "`corbin dropout --n 2400 --p 1/2 --delta 1/10 --delta1 1/100 --alpha 11`; recheck_certificates.py sums "
                "the binomials exactly.";
  return out;
}

}  // namespace corbin::audit
