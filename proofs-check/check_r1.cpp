// R1: the authors' published implementation (REFERENCES.md "reference code"): its exact
// marginal and PLDP ratio on the paper's ε grid at d = 5.

#include "claims.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/privacy/pldp.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "inputs.hpp"

namespace corbin::audit {

ClaimResult check_r1(const Grid& grid) {
  ClaimResult out;
  out.id = "R1";
  out.statement = "The authors' published implementation realises CorBinQ (unbiased, ε-PLDP).";
  out.method = "The reference code's logic (idx' = 2^d − 2 at the top cell, P exact) as the "
               "`reference-code` variant: exact marginal bias on the input grid and exact PLDP "
               "supremum at d = 5 for each ε on the grid.";
  const Rational c(0), r(1);
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
  out.verdict = first_failure.empty() ? Verdict::holds : Verdict::fails;
  out.finding = first_failure.empty() ? "the reference code matches CorBinQ on the grid"
                                      : "breaks once its top cell 2^d − 1 is reachable (e^ε >= 2^(d+1) − 1); first at " + first_failure;
  out.result = out.finding + ".";
  out.recheck = "`corbin pldp --exp-eps 33 --bits 5 --variant reference-code` (unbounded).";
  return out;
}

}  // namespace corbin::audit
