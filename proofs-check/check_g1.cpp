// G1: the Gaussian baseline is ε_p-PLDP in the sense of Eq. (LDP). For inputs w = c + r and
// w′ = c − r the log density ratio at y is 2r(y − c)/σ², unbounded in y: on T = [y, y + 1] with
// y > c + σ²ε/(2r) the probability ratio exceeds e^ε, whatever σ > 0.

#include "claims.hpp"
#include "corbin/privacy/formulas/baselines.hpp"

namespace corbin::audit {

ClaimResult check_g1(const Grid& grid) {
  ClaimResult out;
  out.id = "G1";
  out.statement = "The Gaussian baseline is ε_p-PLDP in the sense of Eq. (LDP).";
  out.method = "For σ calibrated by the analytic Gaussian mechanism (δ = 1e-5, sensitivity 2r) at each ε of the grid, "
               "and for a point y, the exact log density ratio 2r(y − c)/σ² between inputs c + r and c − r, against ε.";
  PrecisionScope scope(128);
  const Rational c(1), r(1);
  Json witnesses = Json::array();
  bool broken = true;
  for (double eps : grid.eps) {
    const Rational e(BigInt(static_cast<long long>(std::llround(eps * 1000))), BigInt(1000));
    const Real sigma_real = agm_sigma(e, Rational(1, 100000), Rational(2) * r);
    // σ as a rational just above the calibrated value (a larger σ only lowers the ratio).
    const Rational sigma(BigInt(static_cast<long long>(std::ceil(sigma_real.convert_to<double>() * 1e6) + 1)), BigInt(1000000));
    // y with log ratio ε + 1: y = c + σ²(ε + 1)/(2r).
    const Rational y = c + sigma * sigma * (e + 1) / (2 * r);
    const Rational log_ratio = 2 * r * (y - c) / (sigma * sigma);
    Json w = Json::object();
    w["kind"] = "gaussian_ratio";
    w["reading"] = "printed";
    put(w, "eps", e);
    put(w, "sigma", sigma);
    w["center"] = to_string(c);
    w["radius"] = to_string(r);
    put(w, "y", y);
    put(w, "log_density_ratio", log_ratio);
    w["refutes"] = log_ratio > e;
    broken = broken && log_ratio > e;
    witnesses.push_back(w);
  }
  out.certificate["witnesses"] = witnesses;
  out.verdict = broken ? Verdict::fails : Verdict::undecided;
  out.finding = "for every σ > 0 the Gaussian mechanism's likelihood ratio between c + r and c − r is unbounded (log ratio "
                "2r(y − c)/σ² at output y); at the calibrated σ of each ε on the grid an output y with log ratio ε + 1 "
                "is given. It is (ε, δ)-DP, never ε-PLDP: \"equal PLDP budgets\" compares unlike guarantees";
  out.result = out.finding + ".";
  out.recheck = "`corbin calibrate gaussian --eps 1 --delta 1e-5` prints σ; the ratio at y is exp(2r(y − c)/σ²).";
  return out;
}

}  // namespace corbin::audit
