// R1: the authors' published implementation (REFERENCES.md "reference code"): its exact
// marginal and PLDP ratio on the paper's ε grid at d = 5.

#include "claims.hpp"
#include "witness.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "inputs.hpp"

namespace corbin::audit {

ClaimResult check_r1(const Grid& grid) {
  ClaimResult out;
  out.id = "R1";
  out.statement = "The authors' published implementation realises CorBinQ (unbiased, ε-PLDP).";
  out.method = "The reference code's logic (idx' = 2^d − 2 at the top cell, P exact) as the "
               "`reference-code` variant: exact marginal bias on the input grid and exact PLDP "
               "supremum at d = 5 for each ε on the grid. The code itself, run (`corbin conform` through an "
               "adapter around its CorBinQ step, PyTorch float32; docs/conform.md): at c = 0, r = 1 its draws are "
               "consistent with this variant's exact law at every setting of the default grid (e^ε = 3 and 9, "
               "d in {1, 2, 3, 5, 8}) and depart from the corrected law's; at d <= 2, where the top cell is reached at "
               "e^ε = 3, its empirical privacy loss is at least 8.5 against ln 3.";
  const Rational c(1), r(1);  // c > 0, as Theorem 1 requires
  const unsigned long d = 5;
  Json rows = Json::array();
  std::string first_failure;
  for (std::size_t i = 0; i < grid.exp_eps.size(); ++i) {
    const Rational x = grid.exp_eps[i], alpha = alpha_of(x);
    const auto p = corbinq_pldp(alpha, c, r, d, Variant::reference_code);
    Rational worst_bias(0);
    for (const Rational& w : input_grid(c, r, grid.input_steps)) {
      const auto law = corbinq_joint_law(alpha, c, r, w, w, d, Variant::reference_code);
      const Rational bias = law.q1_plus() - ldpq_q(alpha, c, r, w);
      if (abs(bias) > abs(worst_bias)) worst_bias = bias;
    }
    Json row = Json::object();
    row["eps"] = grid.eps[i];
    put(row, "exp_eps", x);
    if (p.unbounded) row["ratio"] = "unbounded";
    else put(row, "ratio", p.ratio);
    put(row, "largest_marginal_bias", worst_bias);
    rows.push_back(row);
    const bool breaks = p.unbounded || p.ratio > x || worst_bias != 0;
    if (breaks && first_failure.empty())
      first_failure = "ε = " + std::to_string(grid.eps[i]).substr(0, 4) +
                      (p.unbounded ? ": unbounded likelihood ratio" : ": ratio " + to_string(p.ratio)) +
                      ", marginal bias " + to_string(worst_bias);
  }
  out.certificate["bits"] = d;
  out.certificate["rows"] = rows;
  // The exact threshold: the leader's position 2^d q(c + r) = 2^(d−1)(1 + 1/α) reaches the top
  // cell 2^d − 1 exactly when e^ε >= 2^d − 1. At e^ε = 31 (d = 5) the code is already broken;
  // just below it (e^ε = 31 − 1/1000) it equals CorBinQ at every input (ratio e^ε, no bias).
  const Rational threshold(BigInt(pow2(d) - 1));
  const Json at = reference_top_witness("printed", threshold, "", c, r, d);
  const Rational below = threshold - Rational(1, 1000), alpha_below = alpha_of(below);
  const auto p_below = corbinq_pldp(alpha_below, c, r, d, Variant::reference_code);
  Rational bias_below(0);
  for (const Rational& w : input_grid(c, r, 64)) {
    const auto law = corbinq_joint_law(alpha_below, c, r, w, w, d, Variant::reference_code);
    const Rational bias = abs(law.q1_plus() - ldpq_q(alpha_below, c, r, w));
    if (bias > bias_below) bias_below = bias;
  }
  Json just_below = Json::object();
  put(just_below, "exp_eps", below);
  if (p_below.unbounded) just_below["ratio"] = "unbounded";
  else put(just_below, "ratio", p_below.ratio);
  put(just_below, "largest_marginal_bias", bias_below);
  out.certificate["witnesses"] = Json::array({at});
  out.certificate["just_below_threshold"] = just_below;
  const bool below_ok = !p_below.unbounded && p_below.ratio <= below && bias_below == 0;
  out.verdict = first_failure.empty() && !at["refutes"].get<bool>() ? Verdict::holds : Verdict::fails;
  out.also = {{"regime", below_ok ? Verdict::holds : Verdict::fails}};
  out.finding = "exactly when e^ε < 2^d − 1 (d = 5: ε < ln 31 ≈ 3.434) the code equals CorBinQ; from e^ε = 31 on "
                "(equality included) its top cell's tie always gives the own sign: at w = c + r it outputs c + rα "
                "with probability 1 instead of q = 31/32 (biased) and never c − rα (unbounded likelihood ratio). "
                "The MNIST grid {0.1, 0.3, 1, 3} is below ln 31; CIFAR-10's {5, 7} above" +
                (first_failure.empty() ? std::string() : "; on the ε grid first at " + first_failure);
  out.result = out.finding + ". Just below the threshold (e^ε = 30.999) the exact PLDP ratio is " +
               (p_below.unbounded ? std::string("unbounded") : to_string(p_below.ratio)) +
               " and the largest bias over 129 inputs is " + to_string(bias_below) + ".";
  out.recheck = "`corbin pldp --exp-eps 33 --bits 5 --variant reference-code` (unbounded).";
  return out;
}

}  // namespace corbin::audit
