// `corbin ucdp`: Theorem 3's user-level central DP. Prints the bound as printed (`paper`), as
// re-derived from cpSGD with the proof's substitutions and with consistent units (`cpsgd`),
// and, with --exact, the exact ε at δ of the released sum for one coordinate (`exact`), its
// composition over m coordinates and T rounds, and optionally a search over configurations.

#include <unistd.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/composition.hpp"
#include "corbin/privacy/exact_ucdp.hpp"
#include "corbin/privacy/privacy_loss.hpp"
#include "corbin/privacy/ucdp.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

/// Exact composition is a product over the support^k: cheap up to k = 3 (the tests' range).
constexpr unsigned kMaxExactCompositions = 3;

struct UcdpArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string m = "1", n, gamma, delta, rounds = "1", relation = "both", role = "ldpq", at_eps;
  bool json = false, exact = false, search = false;
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
  j["configuration"] = r.configuration;
  if (r.infinite) {
    j["eps"] = "infinite";
  } else {
    put(j, "eps", r.eps);
    put(j, "exp_eps", r.exp_eps);
  }
  put(j, "disjoint_mass", r.disjoint_mass);
  j["support"] = r.support;
  return j;
}

/// Progress on a terminal only; redirected stderr stays clean.
void progress(std::size_t done, std::size_t total) {
  if (!isatty(2)) return;
  std::cerr << "\rcorbin ucdp --search: " << done << "/" << total << " configurations"
            << (done == total ? "\n" : "") << std::flush;
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
      throw invalid_argument("--eps", to_string(budget.value),
                             "replaced by --alpha or --exp-eps for --exact (the exact law needs a rational α)");
    ExactUcdpSetting e;
    e.n = s.n;
    e.gamma = s.gamma;
    e.delta = s.delta;
    e.geometry = {budget.alpha_exact(), a.geometry.c(), s.radius, a.geometry.d(), a.geometry.v()};
    if (a.role == "ldpq") e.role = TargetClient::Role::ldpq;
    else if (a.role == "paired") e.role = TargetClient::Role::leader;
    else throw invalid_argument("--role", quote(a.role), "ldpq or paired");
    if (a.relation != "both") parse_neighbour(a.relation);  // validates
    const unsigned long rounds = parse_count(a.rounds, "--rounds", 1ul << 40);
    if (rounds < 1) throw invalid_argument("--rounds", a.rounds, "at least 1");
    const Configuration config = proof_configuration(e.geometry.center, e.geometry.radius);
    Json exact = Json::object();
    exact["role"] = a.role;
    exact["bits"] = e.geometry.bits;
    exact["variant"] = to_string(e.geometry.variant);
    for (const Neighbour rel : {Neighbour::remove_one, Neighbour::replace_one}) {
      if (a.relation != "both" && parse_neighbour(a.relation) != rel) continue;
      const ExactUcdpResult r = exact_ucdp(e, config, rel);
      exact["ldpq_clients"] = r.ldpq_clients;
      exact["pairs"] = r.pairs;
      Json j = exact_json(r);
      // Composition over m coordinates and T rounds of this per-coordinate law.
      const auto [p, q] = neighbouring_laws(e, config, rel);
      const BigInt k = BigInt(s.m) * BigInt(rounds);
      const RenyiBound rdp = rdp_epsilon(p, q, k, s.delta);
      Json comp = Json::object();
      comp["compositions"] = k.str();
      if (rdp.infinite) {
        comp["rdp_eps"] = "infinite";
      } else {
        put(comp, "rdp_eps", interval_hull(rdp.eps, rdp.eps));
        comp["rdp_order"] = rdp.order;
      }
      // Brute force where it is cheap: the exact k-fold composition of the privacy loss.
      if (!rdp.infinite && k <= kMaxExactCompositions) {
        const auto at = exp_eps_for_delta(p, q, s.delta, k.convert_to<unsigned>());
        if (at.infinite) comp["exact_eps"] = "infinite";
        else put(comp, "exact_eps", Interval(log(interval_from(at.exp_eps))));
      }
      j["composition"] = comp;
      if (!a.at_eps.empty()) {
        // ε is given in nats, so e^ε is transcendental: each comparison P/Q > e^ε inside the
        // hockey-stick sum is certified with intervals.
        const Rational eps_value = parse_rational(a.at_eps, "--at-eps");
        if (eps_value < 0) throw invalid_argument("--at-eps", a.at_eps, "at least 0");
        const Interval e = Interval(exp(interval_from(eps_value)));
        const Interval df = PrivacyLoss::of(p, q).delta_at(e), db = PrivacyLoss::of(q, p).delta_at(e);
        put(j, "delta_at_eps", upper_of(df) >= upper_of(db) ? df : db);
      }
      if (a.search) {
        const auto results = worst_case_search(e, rel, progress);
        Json list = Json::array();
        for (const auto& r2 : results) list.push_back(exact_json(r2));
        j["search"] = list;
        const ExactUcdpResult& worst = results.front();
        j["proof_configuration_is_worst"] =
            worst.infinite == r.infinite && (r.infinite || worst.exp_eps == r.exp_eps);
      }
      exact[to_string(rel)] = j;
    }
    out["exact"] = exact;
  }
  emit(std::cout, out, a.json);
}

}  // namespace

void add_ucdp(CLI::App& app) {
  auto args = std::make_shared<UcdpArgs>();
  auto* cmd = app.add_subcommand("ucdp", "Theorem 3: UCDP as printed, re-derived from cpSGD, and exact");
  args->budget.add(*cmd);
  cmd->add_option("--m", args->m, "coordinates m >= 1 (default 1)");
  cmd->add_option("--n", args->n, "clients n >= 2")->required();
  cmd->add_option("--gamma", args->gamma, "fraction γ in (0, 1] of clients on LDPQ")->required();
  cmd->add_option("--delta", args->delta, "δ in (0, 1)")->required();
  cmd->add_option("--radius", args->geometry.radius, "radius r > 0 (default 1)");
  cmd->add_option("--center", args->geometry.center, "center c (default 0; --exact only)");
  cmd->add_option("--bits", args->geometry.bits, "shared bits d (default 5; --exact only)");
  cmd->add_option("--variant", args->geometry.variant, "CorBinQ variant (--exact only)");
  cmd->add_flag("--exact", args->exact, "exact ε at δ of the released sum, m = 1 (rational α)");
  cmd->add_option("--relation", args->relation, "remove | replace | both (default both)");
  cmd->add_option("--role", args->role, "client 1's role: ldpq | paired (default ldpq)");
  cmd->add_option("--rounds", args->rounds, "rounds T for the composition (default 1)");
  cmd->add_option("--at-eps", args->at_eps, "also print δ(ε) of the exact law at this ε");
  cmd->add_flag("--search", args->search, "search the others' configurations for the worst case");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_ucdp(*args); });
}

}  // namespace corbin::cli
