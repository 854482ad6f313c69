// T4u (Thm 4): the (ε_u, δ)-UCDP conclusion under dropout, with the printed γ, θ, γ′. The check
// evaluates the printed quantities and preconditions at the points T4 and T4m use; deciding the
// conclusion needs the exact law of the survivors' average, a mixture over who drops out.

#include "claims.hpp"
#include "corbin/privacy/dropout.hpp"

namespace corbin::audit {

ClaimResult check_t4u(const Grid&) {
  ClaimResult out;
  out.id = "T4u";
  out.statement = "Thm 4: under independent dropout p, CorBin-FL is (ε_u, δ)-UCDP with ε_u of Eq. (th:3:1) at the printed γ.";
  out.method = "The printed γ, γ′, θ, ε_u and the precondition in MPFI at two settings.";
  PrecisionScope scope(128);
  Json rows = Json::array();
  for (const auto& [n, p, delta, delta1] :
       {std::tuple<unsigned long, Rational, Rational, Rational>{2000, Rational(1, 10), Rational(1, 10), Rational(1, 100)},
        {1002, Rational(1, 2), Rational(1, 2), Rational(1, 10)}}) {
    DropoutSetting s;
    s.n = n;
    s.p = p;
    s.delta = delta;
    s.delta1 = delta1;
    s.radius = Rational(1);
    s.budget = Budget::make(Budget::Kind::alpha, 3);
    const DropoutResult t = theorem4(s);
    Json row = Json::object();
    row["n"] = n;
    put(row, "p", p);
    put(row, "delta", delta);
    put(row, "delta1", delta1);
    put(row, "gamma", t.gamma);
    put(row, "theta", t.theta);
    row["gamma_in_range"] = t.gamma_in_range;
    row["theta_positive"] = t.theta_positive;
    if (t.eps_u) {
      put(row, "printed_eps_u", t.eps_u->eps_u);
      row["precondition"] = t.eps_u->precondition;
    }
    rows.push_back(row);
  }
  out.certificate["rows"] = rows;
  out.verdict = Verdict::undecided;
  out.finding = "undecided: not refuted, not proved. Eq. (UCDP)'s remove-one parity argument (T3) does not carry over, since "
                "the number of survivors is random; a counterexample needs the exact law of the survivors' average at n of "
                "order 10^3 or more, where the precondition holds. The proof's Chebyshev step is wrong (T4)";
  out.result = out.finding + ".";
  out.recheck = "`corbin dropout --n 1002 --p 1/2 --delta 1/2 --delta1 1/10 --alpha 3`.";
  return out;
}

}  // namespace corbin::audit
