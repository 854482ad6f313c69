// `corbin sweep`'s options; the sweep itself is write_sweep (sweep.cpp), which tests call
// in-process.

#include <unistd.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "sweep.hpp"

namespace corbin::cli {

void add_sweep(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand("sweep", "CSV of one quantity over a grid of parameters");
  cmd->add_option("--quantity", args->quantity,
                  "mse | mse_optimal | mse_ldp | gap | paper_gap_bound | sup_gap | pldp_ratio | "
                  "eps_u_printed | "
                  "eps_u_cpsgd | eps_u_cpsgd_consistent_units | gaussian_sigma | laplace_scale; "
                  "with --mechanism: "
                  "law | law_mse | pldp_ratio | wire_bits")
      ->required();
  cmd->add_option("--mechanism", args->mechanism,
                  "registered mechanisms a,b (`corbin mechanisms`): law, law_mse, pldp_ratio, "
                  "wire_bits are theirs");
  cmd->add_option("--eps", args->eps, "grid of ε (a,b,c or a:b:k)");
  cmd->add_option("--exp-eps", args->exp_eps, "grid of e^ε (exact)");
  cmd->add_option("--alpha", args->alpha, "grid of α (exact)");
  cmd->add_option("--bits", args->bits, "grid of d (default 5)");
  cmd->add_option("--w", args->w,
                  "grid of the leader's weight, or a mechanism's lone client's (default 0)");
  cmd->add_option("--w2", args->w2, "grid of the follower's weight (default 0)");
  cmd->add_option("--center", args->center, "center c (default 0)");
  cmd->add_option("--radius", args->radius, "radius r (default 1)");
  cmd->add_option("--variant", args->variant, "CorBinQ variant (default corrected)");
  cmd->add_option("--n", args->n, "grid of n (UCDP quantities; default 50)");
  cmd->add_option("--gamma", args->gamma, "grid of γ (default 1/2)");
  cmd->add_option("--delta", args->delta, "grid of δ (default 1e-5; one value with --mechanism)");
  cmd->add_option("--m", args->m, "grid of m (default 1)");
  cmd->add_option("--sensitivity", args->sensitivity,
                  "sensitivity for the noise quantities (default 2)");
  cmd->callback([args] { write_sweep(*args, std::cout, isatty(2)); });
}

}  // namespace corbin::cli
