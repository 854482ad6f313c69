// L1 (not claimed by the paper): PLDP of a pair against one eavesdropper on both uplinks, or
// against a holder of Z.

#include "claims.hpp"
#include "witness.hpp"
#include "corbin/privacy/exact/leakage.hpp"

namespace corbin::audit {

ClaimResult check_l1(const Grid& grid) {
  ClaimResult out;
  out.id = "L1";
  out.statement = "(Not claimed by the paper.) A pair's outputs stay ε-PLDP for an observer of both "
                  "uplinks, or for a holder of the shared Z.";
  out.method = "Exact likelihood ratios over every threshold-cell end of both clients' inputs "
               "(corbin leakage), for each e^ε on the grid and d <= 5 on it (`corbin leakage` goes to d = 10; "
               "the rows stop at 5 so that the rechecker recomputes each), and a holder of Z's law given Z at two "
               "inputs.";
  const Rational c(0), r(1);
  Json rows = Json::array();
  bool any_unbounded = false, d0_bounded = true;
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x);
    for (unsigned long d : grid.bits) {
      if (d > kMaxLeakageBits || d > 5) continue;
      const LeakageResult pair = pair_eavesdropper_leakage(alpha, c, r, d, Variant::corrected);
      const LeakageResult z = z_holder_leakage(alpha, c, r, d, Variant::corrected);
      any_unbounded = any_unbounded || pair.unbounded || z.unbounded;
      if (d == 0) d0_bounded = d0_bounded && !pair.unbounded && pair.ratio == x;
      Json row = Json::object();
      put(row, "exp_eps", x);
      row["bits"] = d;
      row["pair_eavesdropper"] = pair.unbounded ? "unbounded" : to_string(pair.ratio);
      row["z_holder"] = z.unbounded ? "unbounded" : to_string(z.ratio);
      if (pair.unbounded) {
        row["recheck"] = Json::array({joint_recheck(alpha, c, r, pair.w_high, pair.w_partner, d, "corrected"),
                                      joint_recheck(alpha, c, r, pair.w_low, pair.w_partner, d, "corrected")});
        row["output"] = pair.output;
      }
      rows.push_back(row);
    }
  }
  out.certificate["rows"] = rows;
  out.certificate["claimed_by_paper"] = false;
  // The holder of Z, concretely: at d = 1, z = 1, e^ε = 3 the leader says c + rα with
  // probability 0 at w = c − r and 1/2 at c + r (an unbounded ratio).
  const Json z_witness = given_z_witness("z_holder", Rational(3), c, r, 1, 1, Rational(c - r), Rational(c + r));
  out.certificate["witnesses"] = Json::array({z_witness});
  out.also = {{"z_holder", z_witness["refutes"].get<bool>() ? Verdict::fails : Verdict::undecided}};
  out.reading = "pair_observer";
  out.verdict = any_unbounded ? Verdict::fails : Verdict::holds;
  out.finding = std::string(any_unbounded ? "for every d >= 1 both observers see an unbounded likelihood ratio (an output impossible for one input, possible for another)"
                                          : "bounded for both observers") +
                (d0_bounded ? "; at d = 0 the ratio is e^ε" : "");
  out.result = out.finding + ". The paper claims only per-client PLDP; this is reported, not held against it.";
  out.recheck = "`corbin leakage --exp-eps 3 --bits 5`.";
  return out;
}

}  // namespace corbin::audit
