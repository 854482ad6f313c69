// E3: Experiment 3, robustness to client dropout (experiments.hpp).

#include "experiments.hpp"

namespace corbin::audit {

ClaimResult check_e3(const Grid& grid) {
  ClaimResult out;
  out.id = "E3";
  out.statement = "Section 5 (iii), Experiment 3: \"the proposed methods are robust to client dropouts, and the model "
                  "accuracy does not fall significantly even for large dropout probabilities, e.g., for p = 0.5\" "
                  "(CorBin-FL, ε_p = 1). \"Significantly\" is read as: decided by the sequential rule.";
  out.method = "Full-scale runs at p = 1/4 and 1/2 against p = 0 (Experiment 7's CorBin-FL run at ε_p = 1): a fall "
               "the sequential rule decides (with dropout below without) refutes the claim; the rule ending "
               "without one confirms it." +
               std::string(kSequentialRule);
  const ExperimentRuns runs = load_experiment_runs(grid.fl_results);
  const SeedValues none = runs.get("exp7-corbin-eps1", "p = 0");
  std::vector<ClaimPart> parts;
  for (const auto& [name, label] : {std::pair{"exp3-p1_4", "p = 1/4"}, std::pair{"exp3-p1_2", "p = 1/2"}}) {
    ClaimPart part(std::string("no significant fall at ") + label, Want::not_below);
    part.compare(runs.get(name, label), none);
    parts.push_back(part);
  }
  decide_experiment(out, runs, parts);
  if (runs.found)
    out.finding = std::string("p = 1/4: ") + to_string(parts[0].verdict()) + "; p = 1/2: " +
                  to_string(parts[1].verdict()) + " (Fashion-MNIST, ε_p = 1, λ = 1)";
  out.recheck = "recheck_certificates.py recomputes every look of every comparison (Welch's t, its p-values and interval) "
                "from the seeds' values, in the certificate and in reports/fl-full/results.csv.";
  return out;
}

}  // namespace corbin::audit
