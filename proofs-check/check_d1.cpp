// D1: "if a member of a pair of clients drops out, the quantization performed by the other
// client is equivalent to the LDPQ quantizer". The survivor's output law (over Z and its own
// coin) against LDPQ's; and its law given Z, what a holder of the pair's key sees.

#include "claims.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "inputs.hpp"
#include "witness.hpp"

namespace corbin::audit {

ClaimResult check_d1(const Grid& grid) {
  ClaimResult out;
  out.id = "D1";
  out.statement = "If a member of a pair drops out, the other's quantization is equivalent to LDPQ.";
  out.method = "Exact: each client's marginal law of Algorithm 2 (intended) against LDPQ's q(w), for every input on the "
               "grid, every e^ε and d; the law given Z = z at two inputs.";
  const Rational c(1), r(1);
  std::size_t points = 0, differ = 0;
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x);
    for (unsigned long d : grid.bits)
      for (const Rational& w : input_grid(c, r, grid.input_steps))
        for (const Rational& partner : {Rational(c - r), c, Rational(c + r)}) {
          const auto as_leader = corbinq_joint_law(alpha, c, r, w, partner, d, Variant::corrected);
          const auto as_follower = corbinq_joint_law(alpha, c, r, partner, w, d, Variant::corrected);
          const Rational q = ldpq_q(alpha, c, r, w);
          ++points;
          differ += as_leader.plus1 != q || as_follower.plus2 != q;
        }
  }
  out.certificate["points"] = points;
  out.certificate["marginal_differs_from_ldpq"] = differ;
  // Given Z = 0 at d = 1, e^ε = 3 (α = 2), c = r = 1: the leader at c − r has u = 2·(1/4) = 1/2,
  // so "+" w.p. 1/2; at c + r, u = 3/2: "+" w.p. 1. And given z = 1: 0 at c − r, 1/2 at c + r.
  const Json w0 = given_z_witness("given_z", Rational(3), c, r, 1, 1, Rational(c - r), Rational(c + r));
  // Line 14 as printed: a survivor that follows (leader at c + r... here c = r = 1, leader at 1,
  // d = 1, e^ε = 3) says c + rα with probability 1/16 at w = 9/8, so its mean is −3/4, not 9/8:
  // not LDPQ's quantization (which is unbiased).
  const Json printed = printed_q2_witness("printed", Rational(3), c, r, 1, c, c, Rational(9, 8));
  out.certificate["witnesses"] = Json::array({w0, printed});
  out.reading = "marginal";
  out.verdict = differ == 0 ? Verdict::holds : Verdict::fails;
  out.also = {{"given_z", w0["refutes"].get<bool>() ? Verdict::fails : Verdict::undecided},
              {"printed", printed["refutes"].get<bool>() ? Verdict::fails : Verdict::undecided}};
  out.finding = "the survivor's output law is exactly LDPQ's at all " + std::to_string(points) +
                " grid points (proved for every d in Coq); given Z it is not: at d = 1, z = 1, e^ε = 3 the leader says "
                "c + rα with probability 0 at w = c − r and 1/2 at c + r, an unbounded ratio for a holder of Z";
  out.result = out.finding + ".";
  out.recheck = "`corbin joint --exp-eps 3 --w 0.3 --w2 -0.7 --bits 5` (marginal1 = q(0.3)).";
  return out;
}

}  // namespace corbin::audit
