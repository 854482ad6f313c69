// T4 (Thm 4): dropout robustness: γ, γ', θ from Chebyshev, UCDP via Eq. (th:3:1), MSE bound.

#include "claims.hpp"
#include "corbin/privacy/dropout.hpp"

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
  s.n = 2000;
  s.p = Rational(1, 10);
  s.delta = Rational(1, 10);
  s.delta1 = Rational(1, 100);
  s.radius = Rational(1);
  s.budget = Budget::make(Budget::Kind::exp_eps, 3);
  const DropoutResult r = theorem4(s);
  Json cx = Json::object();
  cx["n"] = s.n;
  put(cx, "p", s.p);
  put(cx, "delta", s.delta);
  put(cx, "delta1", s.delta1);
  put(cx, "gamma", r.gamma);
  put(cx, "gamma_prime", r.gamma_prime);
  put(cx, "theta", r.theta);
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
  const bool fails = *r.singles_outside.exact > r.claimed || *r.survivors_outside.exact > r.claimed;
  out.reading = "chebyshev_step";
  out.verdict = fails ? Verdict::fails : Verdict::undecided;
  out.finding = "the printed γ has half Chebyshev's width: at n = 2000, p = 1/10, δ − δ1 = 0.09 the event it bounds has exact probability " +
                std::to_string(to_double(*r.singles_outside.exact)).substr(0, 7) +
                " > 0.09; θ is centred at p(1 − p) while a fraction 1 − p survives (P ≈ 1 outside)";
  out.result = out.finding + ".";
  out.recheck = "`corbin dropout --n 2000 --p 1/10 --delta 1/10 --delta1 1/100 --exp-eps 3`.";
  return out;
}

}  // namespace corbin::audit
