#pragma once
// The subcommands of `corbin`. Each add_* registers one subcommand whose callback computes and
// prints its result; errors propagate to main() as exceptions.

#include <CLI/CLI.hpp>

#include "corbin/number/interval.hpp"
#include "corbin/quantizer/budget.hpp"

namespace corbin::cli {

void add_joint(CLI::App& app);  // joint, mse
void add_gap(CLI::App& app);
void add_pldp(CLI::App& app);
void add_mechanisms(CLI::App& app);
void add_ucdp(CLI::App& app);
void add_account(CLI::App& app);
void add_calibrate(CLI::App& app);
void add_dropout(CLI::App& app);
void add_leakage(CLI::App& app);
void add_audit(CLI::App& app);
void add_sweep(CLI::App& app);
void add_check(CLI::App& app);
void add_merge(CLI::App& app);  // the shards of sweep and audit
void add_fl(CLI::App& app);  // in corbin-fl only (libtorch)
void add_conform(CLI::App& app);
/// `corbin conform ... --sampler PROGRAM ARG...`: sets the program's own arguments aside (they are
/// never corbin's options) and shortens argc to end at PROGRAM; nothing for other subcommands.
void take_sampler_arguments(int& argc, char** argv);

/// Calls f(α) with α exact (Rational) for --alpha/--exp-eps, or as an Interval for --eps, under
/// the working precision given.
template <class F>
void with_alpha(const Budget& budget, unsigned precision_bits, F&& f) {
  PrecisionScope scope(precision_bits);
  if (budget.exact())
    f(budget.alpha_exact());
  else
    f(budget.alpha_interval());
}

}  // namespace corbin::cli
