// `corbin sweep`'s options; the sweep itself is write_sweep (sweep.cpp), which tests call
// in-process. With --shard i/N (or in a Slurm array task) it prints a shard file instead of the
// CSV: the grid points k with k mod N = i, each with its CSV rows (shard.hpp); `corbin merge`
// joins the N shards into the unsharded CSV.

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "corbin/number/error.hpp"
#include "options.hpp"
#include "shard.hpp"
#include "sweep.hpp"

namespace corbin::cli {
namespace {

/// The sweep's identity in its shard files: every option as given (defaults included).
Json sweep_arguments(const SweepArgs& a) {
  Json j = Json::object();
  const std::pair<const char*, const std::string*> options[] = {
      {"--quantity", &a.quantity}, {"--mechanism", &a.mechanism}, {"--eps", &a.eps}, {"--exp-eps", &a.exp_eps},
      {"--alpha", &a.alpha}, {"--bits", &a.bits}, {"--w", &a.w}, {"--w2", &a.w2}, {"--center", &a.center},
      {"--radius", &a.radius}, {"--variant", &a.variant}, {"--n", &a.n}, {"--gamma", &a.gamma},
      {"--delta", &a.delta}, {"--m", &a.m}, {"--sensitivity", &a.sensitivity}};
  for (const auto& [option, value] : options) j[option] = *value;
  return j;
}

/// One shard of the sweep, as a shard file on `out` (all computed before anything is printed).
void write_sweep_shard(const SweepArgs& a, const Shard& shard, std::ostream& out, bool progress) {
  if (split_list(a.quantity).size() > 1)
    throw invalid_argument("--shard", "given with several quantities", "absent (shard one quantity at a time)");
  ShardFile file;
  file.run = run_identity("sweep", sweep_arguments(a));
  file.shard = shard;
  const SweepHeader h = sweep_points(
      a, [&](std::size_t k) { return shard.holds(k); },
      [&](std::size_t k, const std::string& rows) { file.results.emplace_back(k, rows); }, progress);
  file.items = h.points;
  file.shared["header"] = h.header;
  out << shard_text(file) << std::flush;
  if (!out) throw invalid_argument("standard output", "unwritable", "a stream the shard can be written to");
}

struct SweepCommand {
  SweepArgs args;
  std::string shard;
  CLI::Option* shard_option = nullptr;
};

}  // namespace

void add_sweep(CLI::App& app) {
  auto command = std::make_shared<SweepCommand>();
  SweepArgs* args = &command->args;
  auto* cmd = app.add_subcommand("sweep", "CSV of one quantity (or several on the same axes) over a grid of parameters");
  cmd->add_option("--quantity", args->quantity,
                  "mse | mse_optimal | mse_ldp | gap | paper_gap_bound | sup_gap | pldp_ratio | "
                  "eps_u_printed | "
                  "eps_u_cpsgd | eps_u_cpsgd_consistent_units | gaussian_sigma | laplace_scale; "
                  "with --mechanism: "
                  "law | law_mse | aggregate_mse | pldp_ratio | wire_bits; several as a,b on the same axes "
                  "(their columns side by side)")
      ->required();
  cmd->add_option("--mechanism", args->mechanism,
                  "registered mechanisms a,b (`corbin mechanisms`): law, law_mse, pldp_ratio, "
                  "wire_bits are theirs");
  cmd->add_option("--eps", args->eps, "grid of ε (a,b,c, a:b:k or a:b:k:log)");
  cmd->add_option("--exp-eps", args->exp_eps, "grid of e^ε (exact)");
  cmd->add_option("--alpha", args->alpha, "grid of α (exact)");
  cmd->add_option("--bits", args->bits, "grid of d, each in [0, 2^15] (default 5)");
  cmd->add_option("--w", args->w,
                  "grid of the leader's weight, or a mechanism's lone client's (default 0)");
  cmd->add_option("--w2", args->w2, "grid of the follower's weight (default 0)");
  cmd->add_option("--center", args->center, "center c (default 0)");
  cmd->add_option("--radius", args->radius, "radius r (default 1)");
  cmd->add_option("--variant", args->variant, "CorBinQ variant (default corrected)");
  cmd->add_option("--n", args->n, "grid of n (UCDP quantities and aggregate_mse; default 50)");
  cmd->add_option("--weights", args->weights,
                  "aggregate_mse at these inputs, one set of n clients' (a,b,c or a:b:k; n is their count), "
                  "over the clients' coins and the server's random pairing order; default: the worst case");
  cmd->add_option("--gamma", args->gamma, "grid of γ (UCDP; one value for aggregate_mse, AugCorBin-FL's share; default 1/2)");
  cmd->add_option("--delta", args->delta, "grid of δ (default 1e-5; one value with --mechanism, where a room reads it: the Gaussian)");
  cmd->add_option("--m", args->m, "grid of m (default 1)");
  cmd->add_option("--sensitivity", args->sensitivity,
                  "sensitivity for the noise quantities (default 2r, the inputs' range)");
  command->shard_option = cmd->add_option(
      "--shard", command->shard,
      "i/N: print shard i of N (0 <= i < N) for `corbin merge`, not the CSV; default in a Slurm array task: "
      "its SLURM_ARRAY_TASK_ID and _COUNT; none: the whole CSV");
  cmd->callback([command, cmd] {
    // The options given on the command line (not left at their defaults), for make_plan's rule.
    for (const CLI::Option* option : cmd->get_options())
      if (option->count() > 0 && option->get_name() != "--shard" && option->get_name() != "--help")
        command->args.given.insert(option->get_name());
    const auto shard = shard_to_run(command->shard, command->shard_option->count() > 0, "sweep", std::getenv);
    if (shard)
      write_sweep_shard(command->args, *shard, std::cout, isatty(2));
    else
      write_sweep(command->args, std::cout, isatty(2));
  });
}

}  // namespace corbin::cli
