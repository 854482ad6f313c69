// `corbin leakage`: what one CorBin pair reveals beyond the per-client PLDP the paper claims —
// to an eavesdropper on both uplinks and to a holder of the shared Z (claim L1; not claimed).

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "corbin/privacy/exact/leakage.hpp"
#include "corbin/privacy/formulas/pldp.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct LeakageArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  bool json = false;
};

Json leakage_json(const LeakageResult& r, bool pair) {
  Json j = Json::object();
  if (r.unbounded) j["ratio"] = "unbounded";
  else put(j, "ratio", r.ratio);
  j["output"] = r.output;
  put(j, "w_high", r.w_high);
  put(j, "w_low", r.w_low);
  if (pair) put(j, "w_partner", r.w_partner);
  if (r.z) j["z"] = r.z->str();
  return j;
}

void run_leakage(const LeakageArgs& a) {
  const Budget budget = a.budget.budget();
  if (!budget.exact())
    throw invalid_argument("--eps", to_string(budget.value),
                           "replaced by --alpha or --exp-eps (the leakage search is exact)");
  const Rational alpha = budget.alpha_exact(), c = a.geometry.c(), r = a.geometry.r();
  const unsigned long bits = a.geometry.d();
  const Variant v = a.geometry.v();
  Json out = Json::object();
  put_budget(out, budget);
  out["bits"] = bits;
  out["variant"] = to_string(v);
  put(out, "claimed_pldp_bound", exp_eps_of(alpha));
  out["claimed_by_paper"] = false;
  out["pair_eavesdropper"] = leakage_json(pair_eavesdropper_leakage(alpha, c, r, bits, v), true);
  out["z_holder"] = leakage_json(z_holder_leakage(alpha, c, r, bits, v), false);
  emit(std::cout, out, a.json);
}

}  // namespace

void add_leakage(CLI::App& app) {
  auto args = std::make_shared<LeakageArgs>();
  auto* cmd = app.add_subcommand("leakage", "likelihood ratios for an observer of both outputs of a pair, or of Z");
  args->budget.add(*cmd);
  args->geometry.add(*cmd, false);
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_leakage(*args); });
}

}  // namespace corbin::cli
