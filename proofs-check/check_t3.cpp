// T3 (Thm 3): AugCorBin-FL is (ε_u, δ)-UCDP with ε_u of Eq. (th:3:1) under its precondition.
// Three quantities side by side: the printed formula, cpSGD re-derived (the proof's units and
// consistent units), and the exact worst-case ε of the released sum for m = 1 (both neighbour
// relations; the worst case over every other client's input, privacy/exact/exact_ucdp.hpp).

#include <algorithm>
#include <cmath>

#include "claims.hpp"
#include "corbin/privacy/run/accountant.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"
#include "witness.hpp"

namespace corbin::audit {

ClaimResult check_t3(const Grid& grid) {
  ClaimResult out;
  out.id = "T3";
  out.statement =
      "Thm 3: AugCorBin-FL is (ε_u, δ)-UCDP with ε_u of Eq. (th:3:1), under its precondition.";
  out.method =
      "Eq. (th:3:1) and cpSGD Thm 1 with the proof's substitutions evaluated in MPFI; the "
      "exact law of the released sum for m = 1 with client 1 removed (Eq. (1)) or replaced, at "
      "every "
      "configuration of the other clients' inputs the worst case reduces to "
      "(privacy/worst_case/neighbours.hpp: "
      "j of the other LDPQ clients at c + r, the rest at c − r), giving the exact worst-case ε at "
      "δ.";
  PrecisionScope scope(128);
  // The counterexample: preconditions hold, the printed ε_u is below the exact ε.
  UcdpSetting s;
  s.m = 1;
  s.n = 1800;
  s.gamma = Rational(1);
  s.delta = Rational(1, 100000);
  s.radius = Rational(1, 100);
  s.budget = Budget::make(Budget::Kind::alpha, 2);
  const UcdpFormula printed = theorem3_printed(s), proof = theorem3_cpsgd(s, false),
                    units = theorem3_cpsgd(s, true);
  ExactUcdpSetting e{s.n, s.gamma, s.delta,
                     SumGeometry{Rational(2), Rational(0), s.radius, 5, Variant::corrected},
                     TargetClient::Role::ldpq};
  const ExactUcdpResult replace = exact_ucdp(e, Neighbour::replace_one);
  const ExactUcdpResult remove = exact_ucdp(e, Neighbour::remove_one);
  Json cx = Json::object();
  cx["n"] = s.n;
  put(cx, "gamma", s.gamma);
  put(cx, "delta", s.delta);
  put(cx, "radius", s.radius);
  put(cx, "alpha", Rational(2));
  cx["m"] = s.m;
  cx["printed_precondition"] = printed.precondition;
  cx["cpsgd_precondition_consistent_units"] = units.precondition;
  put(cx, "printed_eps_u", printed.eps_u);
  put(cx, "cpsgd_eps_u_proof_units", proof.eps_u);
  put(cx, "cpsgd_eps_u_consistent_units", units.eps_u);
  put(cx, "exact_eps_replace_one", replace.eps);
  put(cx, "exact_exp_eps_replace_one", replace.exp_eps);
  cx["others_at_c_plus_r"] =
      replace.configuration.top;  // the worst configuration (client 1 on LDPQ)
  put(cx, "remove_one_disjoint_mass", remove.disjoint_mass);
  out.certificate["counterexample"] = cx;
  const bool understates = printed.precondition && upper_of(printed.eps_u) < lower_of(replace.eps);
  // ε_u against n for the figure, at the counterexample's setting (m = 1, γ = 1, e^ε = 3, r = 1/100,
  // δ = 1e-5): only n moves, so the figure shows where the printed precondition starts to hold
  // (n0, found by bisection: its left side grows with n) and the printed ε_u falling below the
  // exact ε there. At r = 1 the printed ε_u, which grows with r, would hold with room.
  unsigned long below = 2, n0 = s.n;  // precondition fails at `below` (nγ >= 2 is the domain), holds at n0
  for (UcdpSetting probe = s; n0 - below > 1;) {
    probe.n = below + (n0 - below) / 2;
    (theorem3_printed(probe).precondition ? n0 : below) = probe.n;
  }
  // The quick grid keeps one point on each side of n0 (each point's exact worst case is costly to
  // recheck; the witness's is the counterexample's, computed once).
  std::vector<unsigned long> ns = grid.quick ? std::vector<unsigned long>{500, s.n}
                                             : std::vector<unsigned long>{200, 500, 1000, n0, s.n};
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  Json curve = Json::array();
  for (unsigned long n : ns) {
    UcdpSetting c = s;
    c.n = n;
    ExactUcdpSetting ce = e;
    ce.n = n;
    const ExactUcdpResult x = exact_ucdp(ce, Neighbour::replace_one);
    Json point = Json::object();
    point["n"] = n;
    put(point, "printed", theorem3_printed(c).eps_u);
    put(point, "cpsgd_proof_units", theorem3_cpsgd(c, false).eps_u);
    put(point, "cpsgd_consistent_units", theorem3_cpsgd(c, true).eps_u);
    put(point, "exact_replace_one", x.eps);
    put(point, "exact_exp_eps_replace_one", x.exp_eps);
    point["others_at_c_plus_r"] = x.configuration.top;
    point["other_ldpq"] = x.other_ldpq;
    point["printed_precondition"] = theorem3_printed(c).precondition;
    curve.push_back(point);
  }
  out.certificate["eps_u_against_n"] = curve;
  out.certificate["printed_precondition_from_n"] = n0;  // the least n (the counterexample's setting) meeting it
  // At the sizes of the paper's models (m coordinates, one round): the printed ε_u and its
  // precondition against the certified worst-case ε of the m coordinates composed (replace one).
  Json models = Json::array();
  for (unsigned long m : {109386ul, 11173962ul})
    for (unsigned long n : grid.clients) {
      UcdpSetting c = s;
      c.m = m;
      c.n = n;
      c.gamma = Rational(1, 2);
      c.radius = Rational(1);
      AccountSetting a;
      a.n = n;
      a.gamma = c.gamma;
      a.budget = c.budget;
      a.radius = c.radius;
      const Accountant accountant = Accountant(a).compose(m);
      const TwoSided eps = accountant.epsilon(c.delta);
      const UcdpFormula f = theorem3_printed(c);
      Json row = Json::object();
      row["m"] = m;
      row["n"] = n;
      put(row, "printed_eps_u", f.eps_u);
      row["printed_precondition"] = f.precondition;
      row["eps_lower"] = std::isinf(eps.lower) ? Json("infinite") : Json(eps.lower);
      row["eps_upper"] = std::isinf(eps.upper) ? Json("infinite") : Json(eps.upper);
      if (const auto by = accountant.attaining_epsilon(c.delta)) row["eps_lower_attained_by"] = attained_json(*by);
      models.push_back(row);
    }
  out.certificate["paper_model_sizes"] = models;
  std::string at_scale;
  out.certificate["paper_scale"] = t3_paper_scale(grid, at_scale);
  // The witnesses, with every client's input: the other n − 1 clients all use LDPQ (γ = 1), the
  // worst case's j of them at c + r and the rest at c − r; client 1 is at c + r or c − r, and is
  // removed (Eq. (UCDP)) or moved to the other end (replace one). The released value is
  // (1/n) Σ of outputs c ± rα (Eq. (UCDP) keeps the divisor n).
  const ConfigurationWeights worst = weights_of(e, replace.configuration, Neighbour::replace_one);
  Json population = Json::object();
  put(population, "delta", s.delta);
  population["m"] = s.m;
  population["gamma"] = "1";
  population["center"] = "0";
  population["radius"] = to_string(s.radius);
  population["alpha"] = "2";
  population["n"] = s.n;
  Json others = Json::array();
  if (worst.others_low > 0)
    others.push_back(
        Json{{"count", worst.others_low}, {"role", "ldpq"}, {"w", to_string(Rational(-s.radius))}});
  if (worst.others_high > 0)
    others.push_back(
        Json{{"count", worst.others_high}, {"role", "ldpq"}, {"w", to_string(s.radius)}});
  population["others"] = others;
  population["client_1"] = to_string(worst.client_1);
  Json replace_w = population;
  replace_w["kind"] = "t3_replace_one";
  replace_w["reading"] = "replace_one";
  replace_w["client_1_replaced_by"] = to_string(worst.client_1_neighbour);
  put(replace_w, "printed_eps_u", printed.eps_u);
  put(replace_w, "exact_exp_eps", replace.exp_eps);
  replace_w["refutes"] = understates;
  Json remove_w = population;
  remove_w["kind"] = "t3_remove_one";
  remove_w["reading"] = "remove_one";
  remove_w["disjoint_supports"] = remove.infinite;
  remove_w["refutes"] = remove.infinite && printed.precondition;
  out.certificate["witnesses"] = Json::array({replace_w, remove_w});
  out.reading = "replace_one";
  out.also = {{"remove_one",
               remove.infinite && printed.precondition ? Verdict::fails : Verdict::undecided}};
  out.verdict = understates ? Verdict::fails : Verdict::undecided;
  out.finding =
      "with both preconditions met (n = 1800, γ = 1, m = 1, δ = 1e-5, α = 2, r = 1/100) Eq. "
      "(th:3:1) gives " +
      to_decimal(midpoint_of(printed.eps_u), 4) +
      " < exact ε = " + to_decimal(midpoint_of(replace.eps), 4) +
      " (replace one); under Eq. (1)'s remove-one the supports are disjoint (δ = 1); cpSGD with "
      "consistent units (" +
      to_decimal(midpoint_of(units.eps_u), 4) + ") does bound the exact value";
  // The paper's sizes where the precondition holds, one client role: the formula against the
  // certified loss of one round (t3_scale.cpp).
  std::string scale_words;
  for (const Json& row : out.certificate["paper_scale"])
    if (row["rounds"] == 1 && row["role"] == "ldpq" && row["printed_precondition"] == true)
      scale_words += std::string(scale_words.empty() ? "" : "; ") +
                     "m = " + std::to_string(row["m"].get<unsigned long>()) +
                     ", n = " + std::to_string(row["n"].get<unsigned long>()) + ": " +
                     row["formula_at_instance"].get<std::string>();
  if (!scale_words.empty())
    out.finding +=
        ". At the paper's model sizes with the precondition met, against certified bounds on the "
        "composed "
        "loss: " +
        scale_words;
  out.result =
      out.finding +
      ". The printed formula departs from cpSGD by e_p = 1 + 1/α² in place of 1 − 1/α², "
      "ln(m/δ) in place of ln(10m/δ) in the precondition, and the proof's unit mix that "
      "makes ε_u scale with r. At the paper's model sizes (m = 109 386 and 11 173 962, n = 50 to "
      "500, "
      "γ = 1/2, e^ε = 3) the printed precondition fails and both the printed ε_u and the certified "
      "worst-case ε of the m coordinates composed are far above 1 (certificate: "
      "paper_model_sizes): no "
      "meaningful UCDP at those sizes from either. Certified two-sided bounds on the composed loss "
      "(certificate: "
      "paper_scale; replace one, γ = 1/2, e^ε = 3, δ = 1e-5): " +
      at_scale + ". Figure: ε_u against n.";
  out.figures = {{"t3_eps_u_vs_n.png",
                  "ε_u at the counterexample's setting (m = 1, γ = 1, e^ε = 3 so α = 2, r = 1/100, δ = 1e-5) against "
                  "n: Eq. (th:3:1) as printed, cpSGD's Theorem 1 with the proof's substitutions and with consistent "
                  "units, and the exact ε of the released sum under replace-one (the worst case over the other "
                  "clients' inputs). Hollow markers: the printed precondition fails (it holds from n = " +
                      std::to_string(n0) + " on, dotted line); the witness n = " + std::to_string(s.n) +
                      " is marked. Under remove-one (Eq. (UCDP)) ε = ∞ at every n (disjoint supports)."}};
  out.recheck = "`corbin ucdp --n 1800 --gamma 1 --delta 1e-5 --alpha 2 --radius 1/100 --exact`.";
  return out;
}

}  // namespace corbin::audit
