// E1: Experiment 1's ordering at ε_p = 5, decided from the full-scale runs (experiments.hpp).

#include "experiments.hpp"

namespace corbin::audit {

ClaimResult check_e1(const Grid& grid) {
  ClaimResult out;
  out.id = "E1";
  out.statement = "Section 5 (i), Experiment 1: \"under a fixed privacy budget and number of communication rounds, "
                  "the proposed mechanisms outperform the LDP-FL, and Gaussian and Laplace Mechanisms in terms of "
                  "overall model accuracy\" (ε_p = 5, 50 clients). The proposed mechanisms are CorBin-FL and "
                  "AugCorBin-FL; each must beat each baseline.";
  out.method = "Full-scale `corbin fl` runs (reports/fl-full.md): each mechanism's test accuracy at its "
               "best-validation round over the seeds, compared under the sequential rule (experiments.hpp)." +
               std::string(kSequentialRule);
  const ExperimentRuns runs = load_experiment_runs(grid.fl_results);
  std::vector<ClaimPart> parts;
  for (const auto& [mech, label] : {std::pair{"corbin", "CorBin-FL"}, std::pair{"augcorbin", "AugCorBin-FL"}}) {
    ClaimPart part(std::string(label) + " outperforms LDP-FL, Laplace and Gaussian at ε_p = 5", Want::above);
    for (const auto& [base, base_label] :
         {std::pair{"ldp", "LDP-FL"}, std::pair{"laplace", "Laplace"}, std::pair{"gaussian", "Gaussian"}})
      part.compare(runs.get(std::string("exp1-") + mech, label), runs.get(std::string("exp1-") + base, base_label));
    parts.push_back(part);
  }
  decide_experiment(out, runs, parts);
  if (runs.found)
    out.finding = std::string("CorBin-FL: ") + to_string(parts[0].verdict()) + "; AugCorBin-FL: " +
                  to_string(parts[1].verdict()) + " (Fashion-MNIST, λ = 1, sequential rule)";
  out.recheck = "recheck_certificates.py recomputes every look of every comparison (Welch's t, its p-values and interval) "
                "from the seeds' values, in the certificate and in reports/fl-full/results.csv.";
  return out;
}

}  // namespace corbin::audit
