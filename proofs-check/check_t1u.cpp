// T1u (Thm 1, last sentence; the abstract): CorBinQ's MSE converges uniformly to the minimum MSE
// over 𝒬 as d → ∞. With the levels of 𝒬 free, a pair with levels −1 and 5 keeps a gap of 4 at
// every d >= 2 (FreeLevels.v); with levels c ± rα the exact supremum of the gap tends to 0.

#include "claims.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "witness.hpp"

namespace corbin::audit {

ClaimResult check_t1u(const Grid& grid) {
  ClaimResult out;
  out.id = "T1u";
  out.statement = "Thm 1: m(Q1, Q2, w, w′) converges uniformly to the minimum MSE over 𝒬 as d → ∞.";
  out.method = "Exact: the free-levels pair's MSE against CorBinQ's at d = 2, 8, 64 (c = r = 1, e^ε = 3, w = w′ = 2); "
               "with levels c ± rα, the exact supremum of the gap over all inputs (closed form with a witness) for "
               "each e^ε on the grid and d up to 64.";
  Json witnesses = Json::array();
  bool stays = true;
  for (unsigned long d : {2ul, 8ul, 64ul}) {
    Json w = free_levels_witness("printed", "limit", d);
    stays = stays && w["refutes"].get<bool>();
    witnesses.push_back(w);
  }
  out.certificate["witnesses"] = witnesses;
  // Levels c ± rα: sup over inputs of the gap, which must shrink to 0 (as 2r²α²/2^d).
  Json rows = Json::array();
  bool shrinks = true;
  const Rational c(1), r(1);
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x);
    Rational previous(-1);
    for (unsigned long d : {0ul, 4ul, 8ul, 16ul, 32ul, 64ul}) {
      const Rational sup = sup_gap(alpha, c, r, d).value;
      Json row = Json::object();
      put(row, "exp_eps", x);
      row["bits"] = d;
      put(row, "sup_gap", sup);
      rows.push_back(row);
      shrinks = shrinks && (previous < 0 || sup <= previous);
      previous = sup;
    }
    shrinks = shrinks && previous * Rational(pow2(60)) <= 2 * r * r * alpha * alpha * 16;  // 2r²α²/2^64 at d = 64
  }
  out.certificate["levels_rows"] = rows;
  out.reading = "levels";
  out.verdict = shrinks ? Verdict::holds : Verdict::fails;
  out.also = {{"printed", stays ? Verdict::fails : Verdict::undecided}, {"abstract", stays ? Verdict::fails : Verdict::undecided}};
  out.finding = "as printed (levels free in 𝒬) CorBinQ's MSE stays 4 above a pair with levels −1 and 5 at every d >= 2, so it "
                "does not converge to the minimum over 𝒬; with levels c ± rα the supremum of the gap is 2r²α²/2^d → 0";
  out.result = out.finding + ".";
  out.recheck = "`corbin gap --sup --exp-eps 3 --bits 64`; the rechecker recomputes both pairs' MSE at each witness.";
  return out;
}

}  // namespace corbin::audit
