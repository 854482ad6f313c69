// `corbin pldp`: the exact largest likelihood ratio of one client's output (condition C5),
// with the inputs that reach it, against the claimed e^ε, for any registered mechanism
// (fl/registry.hpp: its room computes it).

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/fl/registry.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct PldpArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string mechanism = "corbin", quantizer;
  bool json = false;
};

void run_pldp(const PldpArgs& a) {
  const Budget budget = a.budget.budget();
  // --quantizer is the older spelling: LDPQ alone is LDP-FL's client, a CorBinQ client CorBin-FL's.
  std::string name = a.mechanism;
  if (!a.quantizer.empty()) {
    if (a.quantizer != "corbinq" && a.quantizer != "ldpq")
      throw invalid_argument("--quantizer", quote(a.quantizer), "one of ldpq, corbinq (or --mechanism NAME)");
    name = a.quantizer == "ldpq" ? "ldp" : "corbin";
  }
  const fl::Mechanism& mechanism = fl::Registry::global().find(name);
  fl::CoordinateSetting s;
  s.budget = budget;
  s.center = a.geometry.c();
  s.radius = a.geometry.r();
  s.bits = static_cast<unsigned>(a.geometry.d());
  s.variant = a.geometry.v();
  PrecisionScope scope(a.budget.precision_bits(s.bits));
  const std::optional<fl::PldpSummary> p = mechanism.pldp(s);
  Json out = Json::object();
  put_budget(out, budget);
  out["mechanism"] = mechanism.name();
  if (!a.quantizer.empty()) out["quantizer"] = a.quantizer;
  if (mechanism.pairing() != fl::Pairing::alone) {
    out["bits"] = s.bits;
    out["variant"] = to_string(s.variant);
  }
  put(out, "center", s.center);
  put(out, "radius", s.radius);
  if (!p) {
    out["verdict"] = "no PLDP claim (" + mechanism.summary() + ")";
    emit(std::cout, out, a.json);
    return;
  }
  if (p->claimed) {
    if (p->bound_exact) put(out, "bound", *p->bound_exact);
    else put(out, "bound", p->bound);
  }
  if (p->unbounded) out["ratio"] = "unbounded";
  else if (p->ratio_exact) put(out, "ratio", *p->ratio_exact);
  else put(out, "ratio", p->ratio);
  if (!p->claimed) {
    out["verdict"] = "no ε claimed";
  } else if (p->unbounded) {
    out["verdict"] = "fails";
  } else if (p->ratio_exact && p->bound_exact) {
    out["verdict"] = *p->bound_exact < *p->ratio_exact ? "fails" : "holds";
  } else {
    // ratio <= bound is certified only when the enclosures separate; equal values never do.
    if (upper_of(p->ratio) <= lower_of(p->bound)) out["verdict"] = "holds";
    else if (lower_of(p->ratio) > upper_of(p->bound)) out["verdict"] = "fails";
    else out["verdict"] = "ratio equals e^eps to the working precision (undecided)";
  }
  out["client"] = p->client;
  out["output"] = p->output;
  put(out, "w_high", p->w_high);
  put(out, "w_low", p->w_low);
  if (p->w_partner) put(out, "w_partner", *p->w_partner);
  out["attained"] = p->attained;
  emit(std::cout, out, a.json);
}

}  // namespace

void add_pldp(CLI::App& app) {
  auto args = std::make_shared<PldpArgs>();
  auto* cmd = app.add_subcommand("pldp", "exact PLDP likelihood ratio of a mechanism's client (`corbin mechanisms`)");
  args->budget.add(*cmd);
  args->geometry.add(*cmd, false);
  cmd->add_option("--mechanism", args->mechanism, "a registered mechanism (default corbin: a CorBinQ client)");
  cmd->add_option("--quantizer", args->quantizer, "ldpq | corbinq: the same as --mechanism ldp | corbin");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_pldp(*args); });
}

}  // namespace corbin::cli
