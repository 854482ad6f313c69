// T1c: is CorBinQ optimal among all pairs of quantizers driven by d shared bits plus private
// randomness (with LDPQ marginals, i.e. C4–C5)?
//
// Given Z = z the clients are independent, with P(Q_i = + | z) = p_i(z), Σ_z p_i(z) = 2^d q_i.
// With the marginals fixed the MSE is 4L²·P(++) + const, and P(++) = Σ_z p1(z) p2(z)/2^d. For a
// lower bound let the pair know both inputs: minimise the bilinear Σ p1 p2 over the product of
// the two polytopes {p in [0,1]^(2^d) : Σ p = S}. A bilinear function attains its minimum at a
// vertex of each (linear in either argument), a vertex has at most one fractional entry, and
// for a fixed p1 the best p2 fills the cells where p1 is smallest. The check enumerates every
// vertex p1 exactly for d <= optimise_up_to and compares with CorBinQ, which fills from
// opposite ends: if they agree at every input, no pair sharing d bits does better even when
// it knows both inputs, and CorBinQ (using only its own input) is optimal. For every d the same
// argument applies: the threshold vertex pair from opposite ends attains the greedy optimum.

#include <algorithm>

#include "claims.hpp"
#include "witness.hpp"
#include "corbin/quantizer/corbinq.hpp"
#include "corbin/quantizer/ldpq.hpp"
#include "inputs.hpp"

namespace corbin::audit {
namespace {

/// min over p2 with Σ p2 = s2 of Σ p1 p2: fill the smallest p1 first.
Rational greedy(std::vector<Rational> p1, Rational s2) {
  std::sort(p1.begin(), p1.end());
  Rational total(0);
  for (const Rational& p : p1) {
    const Rational take = s2 >= 1 ? Rational(1) : s2;
    if (take <= 0) break;
    total += take * p;
    s2 -= take;
  }
  return total;
}

/// min over vertices p1 (sum s1, n cells) of greedy(p1, s2).
Rational lower_bound(std::size_t n, const Rational& s1, const Rational& s2) {
  const BigInt ones_big = floor_of(s1);
  const auto ones = ones_big.convert_to<std::size_t>();
  const Rational frac = s1 - Rational(ones_big);
  Rational best(-1);
  // Choose which cells hold 1 (a bitmask with `ones` bits) and where the fraction goes.
  const auto consider = [&](unsigned mask, std::size_t fractional) {
    std::vector<Rational> p1(n, Rational(0));
    for (std::size_t i = 0; i < n; ++i)
      if (mask >> i & 1u) p1[i] = 1;
    if (fractional < n) p1[fractional] = frac;
    const Rational v = greedy(p1, s2);
    if (best < 0 || v < best) best = v;
  };
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    if (static_cast<std::size_t>(__builtin_popcount(mask)) != ones) continue;
    if (frac == 0) {
      consider(mask, n);
      continue;
    }
    for (std::size_t f = 0; f < n; ++f)
      if (!(mask >> f & 1u)) consider(mask, f);
  }
  return best;
}

}  // namespace

ClaimResult check_t1c(const Grid& grid) {
  ClaimResult out;
  out.id = "T1c";
  out.statement = "Implicit in Thm 1: CorBinQ is optimal among pairs of quantizers that share only d bits.";
  out.method = "Exact optimisation for d <= " + std::to_string(grid.optimise_up_to) +
               ": the minimum of P(++) = Σ_z p1(z)p2(z)/2^d over all conditional laws with LDPQ "
               "marginals, by enumerating every vertex p1 of its polytope and the greedy best p2 "
               "(a bilinear minimum sits at vertices), even for a pair that knows both inputs; "
               "compared with CorBinQ's exact P(++). With the marginals fixed, MSE = 4L²P(++) + const.";
  const Rational c(0), r(1);
  std::size_t points = 0, worse = 0;
  Json witness;
  Json samples = Json::array();
  for (const Rational& x : grid.exp_eps) {
    const Rational alpha = alpha_of(x);
    for (unsigned long d = 0; d <= grid.optimise_up_to; ++d) {
      const std::size_t n = std::size_t{1} << d;
      for (const Rational& w1 : input_grid(c, r, grid.input_steps))
        for (const Rational& w2 : input_grid(c, r, grid.input_steps)) {
          const Rational s1 = Rational(BigInt(n)) * ldpq_q(alpha, c, r, w1);
          const Rational s2 = Rational(BigInt(n)) * ldpq_q(alpha, c, r, w2);
          const Rational best = lower_bound(n, s1, s2) / Rational(BigInt(n));
          const auto law = corbinq_joint_law(alpha, c, r, w1, w2, d, Variant::corrected);
          ++points;
          // Every 7th point with all its inputs, for the rechecker to recompute both sides.
          if (points % 7 == 1) {
            Json sample = Json::object();
            put(sample, "exp_eps", x);
            sample["bits"] = d;
            put(sample, "w1", w1);
            put(sample, "w2", w2);
            put(sample, "corbinq_pp", law.pp);
            put(sample, "optimum_pp", best);
            samples.push_back(sample);
          }
          if (law.pp != best) {
            ++worse;
            if (witness.is_null()) {
              witness = Json::object();
              put(witness, "exp_eps", x);
              witness["bits"] = d;
              put(witness, "w1", w1);
              put(witness, "w2", w2);
              put(witness, "corbinq_pp", law.pp);
              put(witness, "optimum_pp", best);
            }
          }
        }
    }
  }
  out.certificate["points"] = points;
  out.certificate["corbinq_not_optimal"] = worse;
  out.certificate["samples"] = samples;
  // The grid above fixes the levels at c ± rα; with 𝒬 as printed a pair with levels −1 and 5
  // has MSE 0 where CorBinQ's is 4 (FreeLevels.v), at every d >= 2.
  out.reading = "levels";
  const Json free = free_levels_witness("finite_d", "optimality", 2);
  out.certificate["witnesses"] = Json::array({free});
  out.also = {{"finite_d", free["refutes"].get<bool>() ? Verdict::fails : Verdict::undecided}};
  if (!witness.is_null()) out.certificate["witness"] = witness;
  out.verdict = worse == 0 ? Verdict::holds : Verdict::fails;
  out.finding = worse == 0 ? "CorBinQ attains the exact optimum over all d-bit pairs at every one of " +
                                 std::to_string(points) + " points (d <= " +
                                 std::to_string(grid.optimise_up_to) + "), even against pairs that see both inputs"
                           : "a d-bit pair beats CorBinQ (see witness)";
  out.finding = "at each finite d (the audit's question; the paper claims optimality only as d → ∞, T1u), with levels free in 𝒬 it fails at every d >= 2 (c = r = 1, e^ε = 3, w = w' = 2: CorBinQ 4, "
                "levels −1 and 5: 0); with levels c ± rα: " + out.finding;
  out.result = out.finding + ". The vertex argument (Optimal.v) extends the optimality to every d.";
  out.recheck = "proofs-check/recheck_certificates.py recomputes CorBinQ's laws and the optimum at every sampled "
                "point, and the free-levels witness.";
  return out;
}

}  // namespace corbin::audit
