// P1 (Prop. 1): LDPQ is the unique binary unbiased ε-PLDP quantizer of minimal MSE.
//
// A binary unbiased quantizer with outputs γ1 > γ2 must send γ1 with probability
// (w − γ2)/(γ1 − γ2). Its PLDP ratio for output γ1 over w in [c − r, c + r] is
// (γ1 − c + r)/(γ1 − c − r), which is <= e^ε iff γ1 >= c + rα; likewise γ2 <= c − rα. With
// γ1 = c + rα + a, γ2 = c − rα − b (a, b >= 0) the MSE is (γ1 − w)(w − γ2), which exceeds
// LDPQ's (rα)² − (w − c)² by a(w − γ2) + b(c + rα − w) > 0 unless a = b = 0. The check
// evaluates each step exactly on the grid.

#include "claims.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "inputs.hpp"

namespace corbin::audit {

ClaimResult check_p1(const Grid& grid) {
  ClaimResult out;
  out.id = "P1";
  out.statement = "Prop. 1: LDPQ is the unique binary unbiased ε-PLDP quantizer of minimal MSE.";
  out.method =
      "Exact: for each e^ε on the grid, (i) the output levels forced by ε-PLDP at the ends of the "
      "input range (ratio (γ1 − c + r)/(γ1 − c − r) = e^ε exactly at γ1 = c + rα, above e^ε just "
      "below it); (ii) every admissible pair of levels γ1 = c + rα + a, γ2 = c − rα − b with a, b "
      "in {0, 1/8, 1/2, 1} against LDPQ's MSE at every grid input: the excess is "
      "a(w − γ2) + b(c + rα − w), zero only at a = b = 0.";
  const Rational c(0), r(1);
  const std::vector<Rational> steps{Rational(0), Rational(1, 8), Rational(1, 2), Rational(1)};
  bool ok = true;
  Rational min_excess(-1);
  Json rows = Json::array();
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x), level = r * alpha;
    const Rational at_level = (level + r) / (level - r);  // ratio with γ1 = c + rα
    const Rational below = (level - Rational(1, 1000) + r) / (level - Rational(1, 1000) - r);
    ok = ok && at_level == x && below > x;
    for (const Rational& a : steps)
      for (const Rational& b : steps) {
        const Rational g1 = c + level + a, g2 = c - level - b;
        for (const Rational& w : input_grid(c, r, grid.input_steps)) {
          const Rational excess = (g1 - w) * (w - g2) - ldpq_mse(alpha, c, r, w);
          const bool is_ldpq = a == 0 && b == 0;
          ok = ok && (is_ldpq ? excess == 0 : excess > 0);
          if (!is_ldpq && (min_excess < 0 || excess < min_excess)) min_excess = excess;
        }
      }
    Json row = Json::object();
    put(row, "exp_eps", x);
    put(row, "alpha", alpha);
    put(row, "ratio_at_c_plus_r_alpha", at_level);
    put(row, "ratio_just_below", below);
    rows.push_back(row);
  }
  out.verdict = ok ? Verdict::holds : Verdict::fails;
  out.finding = ok ? "levels c ± rα are forced by ε-PLDP; every other admissible pair has strictly larger MSE at every input"
                   : "a non-LDPQ binary quantizer matched or beat LDPQ's MSE";
  out.certificate["levels"] = rows;
  // What the rows were computed with: γ1 lowered by this much for ratio_just_below, the offsets
  // a, b of the other admissible levels, the inputs (the grid's, at steps of r/input_steps).
  put(out.certificate, "lowered_by", Rational(1, 1000));
  Json offsets = Json::array();
  for (const Rational& a : steps) offsets.push_back(to_string(a));
  out.certificate["level_offsets"] = offsets;
  put(out.certificate, "center", c);
  put(out.certificate, "radius", r);
  put(out.certificate, "smallest_excess_mse_of_other_levels", min_excess);
  out.result = "All " + std::to_string(grid.exp_eps.size()) +
               " budgets: the ratio at γ1 = c + rα equals e^ε exactly and exceeds it for smaller γ1; "
               "the smallest excess MSE of any other admissible pair on the grid is " +
               to_string(min_excess) + " (> 0).";
  out.recheck = "`corbin pldp --quantizer ldpq --exp-eps 3` prints ratio 3 = e^ε at w = c ± r.";
  return out;
}

}  // namespace corbin::audit
