// `corbin pldp`: the exact largest likelihood ratio of one client's output (condition C5),
// with the inputs that reach it, against the claimed e^ε.

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/privacy/pldp.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct PldpArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  std::string quantizer = "corbinq";
  bool json = false;
};

void run_pldp(const PldpArgs& a) {
  const Budget budget = a.budget.budget();
  if (a.quantizer != "corbinq" && a.quantizer != "ldpq")
    throw invalid_argument("--quantizer", quote(a.quantizer), "one of ldpq, corbinq");
  const bool pair = a.quantizer == "corbinq";
  const unsigned long bits = pair ? a.geometry.d() : 0;
  const Rational c = a.geometry.c(), r = a.geometry.r();
  with_alpha(budget, a.budget.precision_bits(bits), [&](const auto& alpha) {
    using T = std::decay_t<decltype(alpha)>;
    Json out = Json::object();
    put_budget(out, budget);
    out["quantizer"] = a.quantizer;
    if (pair) {
      out["bits"] = bits;
      out["variant"] = to_string(a.geometry.v());
    }
    put(out, "center", c);
    put(out, "radius", r);
    const PldpResult<T> p = pair ? corbinq_pldp(alpha, c, r, bits, a.geometry.v())
                                 : ldpq_pldp(alpha, c, r);
    put(out, "bound", p.bound);
    if (p.unbounded) {
      out["ratio"] = "unbounded";
      out["verdict"] = "fails";
    } else {
      put(out, "ratio", p.ratio);
      if (NumTraits<T>::kExact) {
        out["verdict"] = NumTraits<T>::less(p.bound, p.ratio, "") ? "fails" : "holds";
      } else {
        // ratio <= bound is certified only when the enclosures separate; equal values never do.
        if (upper_of(Interval(p.ratio)) <= lower_of(Interval(p.bound))) out["verdict"] = "holds";
        else if (lower_of(Interval(p.ratio)) > upper_of(Interval(p.bound))) out["verdict"] = "fails";
        else out["verdict"] = "ratio equals e^eps to the working precision (undecided)";
      }
    }
    out["client"] = p.client == 1 ? "leader (Q1)" : "follower (Q2)";
    out["output"] = p.output == 1 ? "c+r*alpha" : "c-r*alpha";
    put(out, "w_high", p.w_high);
    put(out, "w_low", p.w_low);
    if (pair) put(out, "w_partner", p.w_partner);
    out["attained"] = p.attained;
    emit(std::cout, out, a.json);
  });
}

}  // namespace

void add_pldp(CLI::App& app) {
  auto args = std::make_shared<PldpArgs>();
  auto* cmd = app.add_subcommand("pldp", "exact PLDP likelihood ratio of LDPQ or a CorBinQ client");
  args->budget.add(*cmd);
  args->geometry.add(*cmd, false);
  cmd->add_option("--quantizer", args->quantizer, "ldpq | corbinq (default corbinq)");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_pldp(*args); });
}

}  // namespace corbin::cli
