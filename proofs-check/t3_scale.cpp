// Theorem 3 at the sizes of the paper's models: Eq. (th:3:1)'s ε_u against certified two-sided
// bounds on the privacy loss of the released model (privacy/run/accountant.hpp: the exact law of
// one coordinate's aggregate, its privacy-loss distribution discretised pessimistically and
// optimistically with directed rounding, composed over the m coordinates and T rounds).
// Replace-one neighbours (under Eq. (UCDP)'s remove-one the supports are disjoint: T3), γ = 1/2,
// e^ε = 3, δ = 1e-5, inputs at the proof's extremes, client 1 on LDPQ or in a pair.
//
// A row decides the formula at its instance: printed below ε_lower refutes it there, printed
// above ε_upper means it bounds the loss there, and between them is undecided at the bounds'
// width. It speaks for Theorem 3 only where the printed precondition holds; elsewhere it says
// what the formula is worth. T = 100 rows are the loss of a training run (the theorem covers
// one round), for scale.

#include <cmath>

#include "claims.hpp"
#include "witness.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"

namespace corbin::audit {

namespace {

UcdpSetting model_setting(unsigned long m, unsigned long n) {
  UcdpSetting c;
  c.m = m;
  c.n = n;
  c.gamma = Rational(1, 2);
  c.delta = Rational(1, 100000);
  c.radius = Rational(1);
  c.budget = Budget::make(Budget::Kind::exp_eps, 3);
  return c;
}

/// The smallest n at which the printed precondition holds (it only grows with n: its left side
/// is (nγ − 1)(1/4 − 1/(4α²)), its right side does not depend on n).
unsigned long smallest_n(unsigned long m) {
  unsigned long lo = 4, hi = 4;  // nγ >= 2
  while (!theorem3_printed(model_setting(m, hi)).precondition) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const unsigned long mid = lo + (hi - lo) / 2;
    (theorem3_printed(model_setting(m, mid)).precondition ? hi : lo) = mid;
  }
  return hi;
}

Json bound(double x) { return std::isinf(x) ? Json("infinite") : Json(x); }

}  // namespace

Json t3_paper_scale(const Grid& grid, std::string& summary) {
  Json rows = Json::array();
  const std::vector<unsigned long> models = grid.quick ? std::vector<unsigned long>{421642}
                                                       : std::vector<unsigned long>{421642, 11173962};
  for (unsigned long m : models) {
    const unsigned long first = smallest_n(m);
    std::vector<unsigned long> sizes = grid.quick ? std::vector<unsigned long>{50}
                                                  : std::vector<unsigned long>{50, 200, 500};
    sizes.push_back(first);
    for (unsigned long n : sizes)
      for (const auto role : {TargetClient::Role::ldpq, TargetClient::Role::leader}) {
        const UcdpSetting c = model_setting(m, n);
        const UcdpFormula f = theorem3_printed(c);
        AccountSetting a;
        a.n = n;
        a.gamma = c.gamma;
        a.budget = c.budget;
        a.radius = c.radius;
        a.role = role;
        const Accountant one_round = Accountant(a).compose(m);
        for (unsigned long rounds : grid.quick ? std::vector<unsigned long>{1} : std::vector<unsigned long>{1, 100}) {
          const Accountant accountant = rounds == 1 ? one_round : one_round.compose(rounds);
          const TwoSided eps = accountant.epsilon(c.delta);
          Json row = Json::object();
          row["m"] = m;
          row["n"] = n;
          row["rounds"] = rounds;
          row["role"] = role == TargetClient::Role::ldpq ? "ldpq" : "paired (leader)";
          row["bits"] = a.bits;  // the pair's d, which its law depends on (the rechecker's input)
          row["smallest_n_meeting_precondition"] = n == first;
          put(row, "gamma", c.gamma);
          put(row, "delta", c.delta);
          put(row, "exp_eps", Rational(3));
          put(row, "radius", c.radius);
          row["printed_precondition"] = f.precondition;
          put(row, "printed_eps_u", f.eps_u);
          row["eps_lower"] = bound(eps.lower);
          row["eps_upper"] = bound(eps.upper);
          // The lower bound's configuration, every client's input, so that it can be recomputed.
          if (const auto by = accountant.attaining_epsilon(c.delta)) row["eps_lower_attained_by"] = attained_json(*by);
          // Outward decimals of doubles; the printed value is compared through its enclosure.
          const std::string verdict = upper_of(f.eps_u) < eps.lower   ? "fails"
                                      : lower_of(f.eps_u) > eps.upper ? "holds at this instance"
                                                                      : "undecided";
          row["formula_at_instance"] = rounds == 1 ? Json(verdict) : Json("not claimed (the theorem covers one round)");
          if (std::isfinite(eps.upper) && eps.lower > 0) row["relative_width"] = (eps.upper - eps.lower) / eps.lower;
          if (rounds == 1 && n == first && role == TargetClient::Role::ldpq)
            summary += std::string(summary.empty() ? "" : "; ") + "m = " + std::to_string(m) + ", n = " +
                       std::to_string(n) + " (the smallest meeting the precondition): printed " +
                       to_decimal(midpoint_of(f.eps_u), 4) + " against certified [" + to_decimal(Real(eps.lower), 4) +
                       ", " + to_decimal(Real(eps.upper), 4) + "]: " + verdict;
          rows.push_back(row);
        }
      }
  }
  return rows;
}

}  // namespace corbin::audit
