#pragma once
// `corbin sweep` as a function: the CLI (cmd_sweep.cpp) prints to stdout, and a test calls it
// in-process, where a mechanism it registered (tests/test_registry.cpp's toy) is in the registry.

#include <ostream>
#include <string>

namespace corbin::cli {

/// The options as given on the command line (every grid and number as text; `mechanism` empty
/// when --mechanism is not given).
struct SweepArgs {
  std::string quantity, eps, exp_eps, alpha,
      bits = "5", w = "0", w2 = "0", center = "0", radius = "1", variant = "corrected", n = "50",
      gamma = "1/2", delta = "1e-5", m = "1", sensitivity = "2", mechanism;
};

/// Computes the whole CSV, then writes it to `out` (nothing at all when a value is refused
/// half-way). Bad input raises invalid_argument naming the option; `progress` writes a counter
/// to stderr.
void write_sweep(const SweepArgs& args, std::ostream& out, bool progress = false);

}  // namespace corbin::cli
