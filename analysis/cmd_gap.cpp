// `corbin gap`: CorBinQ's MSE gap to the d -> ∞ optimum (Theorem 1) for a pair, or with --sup
// its exact supremum over all inputs with a maximising pair, against the paper's r²α²/2^(d−6).

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/utility/pair_mse.hpp"
#include "options.hpp"
#include "report.hpp"

namespace corbin::cli {
namespace {

struct GapArgs {
  BudgetOptions budget;
  GeometryOptions geometry;
  bool sup = false, json = false;
};

void run_gap(const GapArgs& a) {
  const Budget budget = a.budget.budget();
  const unsigned long bits = a.geometry.d();
  const Rational c = a.geometry.c(), r = a.geometry.r();
  const Variant variant = a.geometry.v();
  if (a.sup && variant != Variant::corrected)
    throw invalid_argument("--variant", to_string(variant),
                           "corrected with --sup (the supremum is derived for Alg. 2 as intended)");
  with_alpha(budget, a.budget.precision_bits(bits), [&](const auto& alpha) {
    using T = std::decay_t<decltype(alpha)>;
    Json out = Json::object();
    put_budget(out, budget);
    out["bits"] = bits;
    out["variant"] = to_string(variant);
    put(out, "center", c);
    put(out, "radius", r);
    const T bound = paper_gap_bound(alpha, r, bits);
    if (a.sup) {
      const GapSupremum<T> s = sup_gap(alpha, c, r, bits);
      put(out, "sup_gap", s.value);
      put(out, "w", s.w1);
      put(out, "w2", s.w2);
      put(out, "paper_gap_bound", bound);
      put(out, "bound_over_sup", T(bound / s.value));
      out["bound_holds"] = !NumTraits<T>::less(bound, s.value, "paper bound < sup gap");
    } else {
      const Rational w1 = a.geometry.w1(), w2 = a.geometry.w2_value();
      const PairUtility<T> u = pair_utility(alpha, c, r, w1, w2, bits, variant);
      put(out, "w", w1);
      put(out, "w2", w2);
      put(out, "gap", u.gap);
      put(out, "mse", u.mse);
      put(out, "mse_optimal", u.mse_optimal);
      put(out, "paper_gap_bound", bound);
    }
    emit(std::cout, out, a.json);
  });
}

}  // namespace

void add_gap(CLI::App& app) {
  auto args = std::make_shared<GapArgs>();
  auto* cmd = app.add_subcommand("gap", "MSE gap of CorBinQ to the optimum (Theorem 1)");
  args->budget.add(*cmd);
  args->geometry.add(*cmd, true);
  cmd->add_flag("--sup", args->sup, "the exact supremum over all inputs, with a maximising pair");
  cmd->add_flag("--json", args->json, "one JSON object on stdout");
  cmd->callback([args] { run_gap(*args); });
}

}  // namespace corbin::cli
