// D0: "if d = 0 CorBin-FL reduces to LDP-FL": at d = 0 the pair's joint law is the product of
// two independent LDPQ laws.

#include "claims.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "inputs.hpp"

namespace corbin::audit {

ClaimResult check_d0(const Grid& grid) {
  ClaimResult out;
  out.id = "D0";
  out.statement = "If d = 0, CorBin-FL reduces to LDP-FL.";
  out.method = "Exact joint law at d = 0 against the product of the LDPQ marginals, every variant.";
  const Rational c(0), r(1);
  std::size_t points = 0, corrected_diff = 0, reference_diff = 0;
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x);
    for (const Rational& w1 : input_grid(c, r, grid.input_steps))
      for (const Rational& w2 : input_grid(c, r, grid.input_steps)) {
        const Rational q1 = ldpq_q(alpha, c, r, w1), q2 = ldpq_q(alpha, c, r, w2);
        ++points;
        const auto law = corbinq_joint_law(alpha, c, r, w1, w2, 0, Variant::corrected);
        corrected_diff += law.pp != q1 * q2 || law.mm != (1 - q1) * (1 - q2);
        const auto ref = corbinq_joint_law(alpha, c, r, w1, w2, 0, Variant::reference_code);
        reference_diff += ref.pp != q1 * q2 || ref.mm != (1 - q1) * (1 - q2);
      }
  }
  out.certificate["points"] = points;
  out.certificate["corrected_differences"] = corrected_diff;
  out.certificate["reference_code_differences"] = reference_diff;
  out.certificate["recheck"] = Json::array(
      {joint_recheck(Rational(2), c, r, Rational(1, 2), Rational(-1, 4), 0, "corrected")});
  out.verdict = corrected_diff == 0 ? Verdict::holds : Verdict::fails;
  out.finding = "at d = 0 the intended algorithm is exactly two independent LDPQs (" +
                std::to_string(points) + " points); the authors' code is not (" +
                std::to_string(reference_diff) + " points differ: its top cell makes it ignore the input)";
  out.result = out.finding + ".";
  out.recheck = "`corbin joint --exp-eps 3 --w 0.5 --w2 -0.25 --bits 0` (joint = product).";
  return out;
}

}  // namespace corbin::audit
