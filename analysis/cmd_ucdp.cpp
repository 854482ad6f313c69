// `corbin ucdp`: Theorem 3's user-level central DP. Prints the bound as printed (`paper`), as
// re-derived from cpSGD with the proof's substitutions and with consistent units (`cpsgd`),
// and, with --exact, the exact worst-case ε at δ of the released sum for one coordinate
// (`exact`): the largest over every pair of neighbouring datasets (privacy/exact/exact_ucdp.hpp), with
// the configuration that attains it. Composition over coordinates and rounds is
// `corbin account`'s (certified, over the same worst case).

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/exact/exact_ucdp.hpp"
#include "corbin/privacy/formulas/ucdp.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct UcdpArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string m = "1", n, gamma, delta, relation = "both", role = "ldpq";
  bool json = false, exact = false;
};

void put_named(Json& out, const std::string& key, const std::vector<NamedValue>& values) {
  Json j = Json::object();
  for (const NamedValue& v : values) put(j, v.name, v.value);
  out[key] = j;
}

Json formula_json(const UcdpFormula& f) {
  Json j = Json::object();
  put(j, "eps_u", f.eps_u);
  j["precondition"] = f.precondition;
  put(j, "precondition_lhs", f.precondition_lhs);
  put_named(j, "precondition_rhs", f.precondition_rhs);
  put_named(j, "terms", f.terms);
  put_named(j, "parameters", f.parameters);
  return j;
}

Json exact_json(const ExactUcdpResult& r) {
  Json j = Json::object();
  if (r.infinite) {
    j["eps"] = "infinite";
  } else {
    put(j, "eps", r.eps);
    put(j, "exp_eps", r.exp_eps);
  }
  Json by = Json::object();
  by["client_1"] = r.words.client_1;
  by["neighbour"] = r.words.replaced_by;
  if (!r.words.partner.empty()) by["partner"] = r.words.partner;
  by["other_ldpq"] = r.words.others_ldpq;
  by["other_pairs"] = r.words.others_pairs;
  j["attained_by"] = by;
  put(j, "disjoint_mass", r.disjoint_mass);
  j["support"] = r.support;
  j["configurations"] = r.configurations;
  j["exact_laws_computed"] = r.exact_laws;
  return j;
}

void run_ucdp(const UcdpArgs& a) {
  const Budget budget = a.budget.budget();
  UcdpSetting s;
  s.m = parse_count(a.m, "--m", 1ul << 40);
  s.n = parse_count(a.n, "--n", 1ul << 40);
  s.gamma = parse_rational(a.gamma, "--gamma");
  s.delta = parse_rational(a.delta, "--delta");
  s.radius = a.geometry.r();
  s.budget = budget;
  check_ucdp_setting(s);
  PrecisionScope scope(a.budget.precision_bits(0));
  Json out = Json::object();
  put_budget(out, budget);
  out["m"] = s.m;
  out["n"] = s.n;
  put(out, "gamma", s.gamma);
  put(out, "delta", s.delta);
  put(out, "radius", s.radius);
  out["paper"] = formula_json(theorem3_printed(s));
  const UcdpFormula proof = theorem3_cpsgd(s, false), units = theorem3_cpsgd(s, true);
  Json cpsgd = formula_json(proof);
  put(cpsgd, "eps_u_consistent_units", units.eps_u);
  cpsgd["precondition_consistent_units"] = units.precondition;
  put_named(cpsgd, "terms_consistent_units", units.terms);
  out["cpsgd"] = cpsgd;
  if (a.exact) {
    if (!budget.exact())
      throw invalid_argument(
          "--eps", to_string(budget.value),
          "replaced by --alpha or --exp-eps for --exact (the exact law needs a rational α)");
    ExactUcdpSetting e;
    e.n = s.n;
    e.gamma = s.gamma;
    e.delta = s.delta;
    e.geometry = {budget.alpha_exact(), a.geometry.c(), s.radius, a.geometry.d(), a.geometry.v()};
    if (a.role == "ldpq")
      e.role = TargetClient::Role::ldpq;
    else if (a.role == "paired")
      e.role = TargetClient::Role::leader;
    else
      throw invalid_argument("--role", quote(a.role), "ldpq or paired");
    if (a.relation != "both") parse_neighbour(a.relation);  // validates
    Json exact = Json::object();
    exact["role"] = a.role;
    exact["bits"] = e.geometry.bits;
    exact["variant"] = to_string(e.geometry.variant);
    exact["worst_case_over"] =
        "every pair of neighbouring datasets: client 1's inputs (and its partner's), and every "
        "other client's input in [c - r, c + r] (privacy/worst_case/neighbours.hpp)";
    for (const Neighbour rel : {Neighbour::remove_one, Neighbour::replace_one}) {
      if (a.relation != "both" && parse_neighbour(a.relation) != rel) continue;
      const ExactUcdpResult r = exact_ucdp(e, rel);
      exact["ldpq_clients"] = r.ldpq_clients;
      exact["pairs"] = r.pairs;
      exact[to_string(rel)] = exact_json(r);
    }
    out["exact"] = exact;
  }
  emit(std::cout, out, a.json);
}

}  // namespace

void add_ucdp(CLI::App& app) {
  auto args = std::make_shared<UcdpArgs>();
  auto* cmd =
      app.add_subcommand("ucdp", "Theorem 3: UCDP as printed, re-derived from cpSGD, and exact");
  args->budget.add(*cmd);
  cmd->add_option("--m", args->m, "coordinates m >= 1 (default 1)");
  cmd->add_option("--n", args->n, "clients n >= 2")->required();
  cmd->add_option("--gamma", args->gamma, "fraction γ in (0, 1] of clients on LDPQ")->required();
  cmd->add_option("--delta", args->delta, "δ in (0, 1)")->required();
  cmd->add_option("--radius", args->geometry.radius, "radius r > 0 (default 1)");
  cmd->add_option("--center", args->geometry.center, "center c (default 0; --exact only)");
  cmd->add_option("--bits", args->geometry.bits, "shared bits d in [0, 256] (default 5; --exact only)");
  cmd->add_option("--variant", args->geometry.variant, "CorBinQ variant (--exact only)");
  cmd->add_flag("--exact", args->exact,
                "exact worst-case ε at δ of the released sum, m = 1 (rational α)");
  cmd->add_option("--neighbours", args->relation, "the neighbouring relation: remove | replace | both (default both)");
  cmd->add_option("--role", args->role, "client 1's role: ldpq | paired (default ldpq)");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_ucdp(*args); });
}

}  // namespace corbin::cli
