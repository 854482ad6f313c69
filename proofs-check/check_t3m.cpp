// T3m (Thm 3): AugCorBin-FL's MSE bound. With ⌊γn⌋ clients on LDPQ and the rest in pairs (one
// more on LDPQ when the rest is odd: D1), the exact worst-case MSE of the aggregate (d → ∞)
// against the printed bound, with Theorem 3's precondition met.

#include "claims.hpp"
#include "corbin/utility/pair_mse.hpp"

namespace corbin::audit {

namespace {
/// Theorem 3's printed bound: γr²α²/n + ((1 − γ)/(2n)) r² ((√2−1)α+1)((√2+1)α−1).
Rational th3_bound(const Rational& alpha, const Rational& r, const Rational& gamma, unsigned long n) {
  const Rational nn{BigInt(static_cast<long long>(n))};
  return gamma * r * r * alpha * alpha / nn + (1 - gamma) / (2 * nn) * r * r * paper_pair_constant(alpha);
}
}  // namespace

ClaimResult check_t3m(const Grid&) {
  ClaimResult out;
  out.id = "T3m";
  out.statement = "Thm 3: lim MSE <= γr²α²/n + ((1 − γ)/(2n)) r²((√2−1)α+1)((√2+1)α−1).";
  out.method = "Exact: n = 1000, γ = 999/1000, e^ε = 2 (α = 3), m = 1, δ = e^(−9) (so log(m/δ) = 9 exactly), c = r = 1. "
               "⌊γn⌋ = 999 clients on LDPQ leave one client, who cannot be paired and uses LDPQ too; every input at c, "
               "where each LDPQ client's MSE is its largest, r²α².";
  const unsigned long n = 1000;
  const Rational gamma(999, 1000), alpha(3), r(1), c(1);
  const unsigned long k0 = 999, k = k0 + (n - k0) % 2, pairs = (n - k) / 2;
  const Rational nn{BigInt(static_cast<long long>(n))};
  const Rational mse = Rational(BigInt(static_cast<long long>(k))) * r * r * alpha * alpha / (nn * nn);
  const Rational bound = th3_bound(alpha, r, gamma, n);
  // Precondition: (nγ − 1)(1/4 − 1/(4α²)) >= max(23 log(m/δ), 2rα) with log(m/δ) = 9.
  const Rational lhs = (nn * gamma - 1) * (Rational(1, 4) - 1 / (4 * alpha * alpha));
  const Rational rhs = std::max(Rational(23 * 9), Rational(2 * r * alpha));
  Json w = Json::object();
  w["kind"] = "aug_mse_rule";
  w["reading"] = "printed";
  w["n"] = n;
  put(w, "gamma", gamma);
  put(w, "alpha", alpha);
  put(w, "center", c);
  put(w, "radius", r);
  w["m"] = 1;
  w["minus_ln_delta"] = 9;
  w["ldpq_clients"] = k;
  w["pairs"] = pairs;
  w["inputs"] = "every client at c";
  put(w, "exact_mse", mse);
  put(w, "printed_bound", bound);
  put(w, "precondition_lhs", lhs);
  put(w, "precondition_rhs", rhs);
  const bool refutes = lhs >= rhs && mse > bound;
  w["refutes"] = refutes;
  out.certificate["witnesses"] = Json::array({w});
  out.verdict = refutes ? Verdict::fails : Verdict::undecided;
  out.finding = "with Theorem 3's precondition met (n = 1000, γ = 999/1000, e^ε = 2, δ = e^(−9): " + std::to_string(to_double(lhs)).substr(0, 6) +
                " >= " + to_string(rhs) + ") all 1000 clients end on LDPQ and at w = c the exact MSE " + to_string(mse) +
                " exceeds the bound " + to_string(bound) + "; with exactly γn clients on LDPQ the bound holds (proved)";
  out.result = out.finding + ".";
  out.recheck = "The rechecker recomputes the rule, the MSE, the bound and the precondition from the witness.";
  return out;
}

}  // namespace corbin::audit
