// E2: Experiment 2, accuracy against the shared bits d (experiments.hpp).

#include "experiments.hpp"

namespace corbin::audit {

ClaimResult check_e2(const Grid& grid) {
  ClaimResult out;
  out.id = "E2";
  out.statement = "Section 5 (ii), Experiment 2: \"the accuracy gains increase as the number of shared random bits per "
                  "model parameter is increased, however, the gains saturate for relatively small values of d (e.g., "
                  "d = 5)\" (CorBin-FL, ε_p = 1, d ∈ {3, 5, 7}).";
  out.method = "Full-scale runs at d = 3, 5, 7 (d = 5 is Experiment 7's CorBin-FL run at ε_p = 1), compared under "
               "the sequential rule: the gain from 3 to 5 must be decided, and the rule must end without deciding a "
               "gain from 5 to 7 (\"saturate\": no significant gain)." +
               std::string(kSequentialRule);
  const ExperimentRuns runs = load_experiment_runs(grid.fl_results);
  const SeedValues d3 = runs.get("exp2-d3", "d = 3"), d5 = runs.get("exp7-corbin-eps1", "d = 5"),
                   d7 = runs.get("exp2-d7", "d = 7");
  ClaimPart grows("accuracy grows from d = 3 to d = 5", Want::above);
  grows.compare(d5, d3);
  ClaimPart saturates("the gain saturates: d = 7 adds nothing beyond d = 5", Want::not_above);
  saturates.compare(d7, d5);
  decide_experiment(out, runs, {grows, saturates});
  if (runs.found)
    out.finding = std::string("growth from d = 3 to 5: ") + to_string(grows.verdict()) + "; saturation after 5: " +
                  to_string(saturates.verdict()) + " (Fashion-MNIST, ε_p = 1)";
  out.recheck = "recheck_certificates.py recomputes every look of every comparison (Welch's t, its p-values and interval) "
                "from the seeds' values, in the certificate and in reports/fl-full/results.csv.";
  return out;
}

}  // namespace corbin::audit
