// E4: Experiment 4, CorBin-FL against LDP-FL from 50 to 500 clients (experiments.hpp).

#include "experiments.hpp"

namespace corbin::audit {

ClaimResult check_e4(const Grid& grid) {
  ClaimResult out;
  out.id = "E4";
  out.statement = "Section 5 (iv), Experiment 4: \"the proposed methods outperform the LDP-FL mechanism for different "
                  "numbers of clients ranging from 50 to 500\" (ε_p = 5, batch 32).";
  out.method = "Full-scale runs at n = 50, 200 and 500 clients, CorBin-FL against LDP-FL under the sequential rule." +
               std::string(kSequentialRule);
  const ExperimentRuns runs = load_experiment_runs(grid.fl_results);
  // One part per n, so that the finding says where the order is decided and where the seeds overlap.
  std::vector<ClaimPart> parts;
  for (const char* n : {"50", "200", "500"}) {
    ClaimPart part(std::string("CorBin-FL outperforms LDP-FL at n = ") + n, Want::above);
    part.compare(runs.get(std::string("exp4-n") + n + "-corbin", std::string("CorBin-FL, n = ") + n),
                 runs.get(std::string("exp4-n") + n + "-ldp", std::string("LDP-FL, n = ") + n));
    parts.push_back(part);
  }
  decide_experiment(out, runs, parts);
  if (runs.found)
    out.finding = "n = 50: " + std::string(to_string(parts[0].verdict())) + "; n = 200: " +
                  to_string(parts[1].verdict()) + "; n = 500: " + to_string(parts[2].verdict()) +
                  " (Fashion-MNIST, ε_p = 5, batch 32, λ = 1)";
  out.recheck = "recheck_certificates.py recomputes every look of every comparison (Welch's t, its p-values and interval) "
                "from the seeds' values, in the certificate and in reports/fl-full/results.csv.";
  return out;
}

}  // namespace corbin::audit
