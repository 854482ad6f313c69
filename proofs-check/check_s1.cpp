// S1: "The SCDP guarantees for AugCorBin-FL can be derived in terms of the sensitivity
// parameter, using a similar method as in the proof of Theorem 3." Eq. (SCDP) replaces client 1's
// vector by one within Δ2; no ε_s is stated. What can be computed: for Δ2 >= 2r (any in-range
// replacement) SCDP is replace-one UCDP, whose exact ε the check gives at a small n.

#include "claims.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"

namespace corbin::audit {

ClaimResult check_s1(const Grid& grid) {
  ClaimResult out;
  out.id = "S1";
  out.statement = "AugCorBin-FL achieves SCDP (Eq. (SCDP)); the paper states no ε_s.";
  out.method =
      "The exact worst case (every other client's input, privacy/exact/exact_ucdp.hpp) of the released "
      "sum for m = 1 (γ = 1) with client 1 "
      "replaced across its whole range (c ± r), the farthest replacement Eq. (SCDP) allows when Δ2 "
      ">= 2r; its exact ε "
      "at δ = 1e-5 for several n.";
  PrecisionScope scope(128);
  Json rows = Json::array();
  for (unsigned long n : grid.quick ? std::vector<unsigned long>{100, 400}
                                    : std::vector<unsigned long>{100, 400, 1600}) {
    ExactUcdpSetting e{n, Rational(1), Rational(1, 100000),
                       SumGeometry{Rational(2), Rational(0), Rational(1), 5, Variant::corrected},
                       TargetClient::Role::ldpq};
    const ExactUcdpResult x = exact_ucdp(e, Neighbour::replace_one);
    Json row = Json::object();
    row["n"] = n;
    // The setting, whole: γ = 1 (every client on LDPQ), one coordinate, α = 2 (e^ε = 3), δ, the
    // range [c − r, c + r]; client 1 replaced from c − r to c + r; the other n − 1 clients at the
    // worst configuration: this many at c + r, the rest at c − r.
    put(row, "gamma", e.gamma);
    row["m"] = 1;
    put(row, "alpha", e.geometry.alpha);
    put(row, "delta", e.delta);
    put(row, "center", e.geometry.center);
    put(row, "radius", e.geometry.radius);
    row["others_at_c_plus_r"] = x.configuration.top;  // the worst configuration (client 1 on LDPQ)
    row["others_at_c_minus_r"] = n - 1 - x.configuration.top;
    put(row, "exact_exp_eps_replace_one", x.exp_eps);
    put(row, "exact_eps_replace_one", x.eps);
    rows.push_back(row);
  }
  out.certificate["scdp_at_sensitivity_2r"] = rows;
  out.certificate["epsilon_s_stated"] = false;
  out.verdict = Verdict::undecided;
  out.finding =
      "the paper states no ε_s (only that one \"can be derived\"); for Δ2 >= 2r, SCDP is "
      "replace-one "
      "UCDP, whose exact ε the certificate gives (α = 2, m = 1) and Theorem 3's formula "
      "understates (T3)";
  // What does follow (Thm3.v), though the paper states neither: post-processing of LDPQ's PLDP.
  out.result = out.finding + ". What does follow: with no client paired (e.g. γ = 1) AugCorBin-FL is "
               "(m·ε_p, δ)-SCDP for every Δ2 and δ >= 0 (Coq: `Thm3.S1_all_ldpq`; a client on LDPQ alone: "
               "`Thm3.S1_ldpq_client`); a paired client gets no such bound, since its pair's joint law has an "
               "unbounded likelihood ratio (L1), and only a total-variation bound on its influence remains.";
  out.recheck = "`corbin ucdp --n 400 --gamma 1 --delta 1e-5 --alpha 2 --exact`.";
  return out;
}

}  // namespace corbin::audit
