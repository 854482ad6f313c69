// The reader of the full-scale experiments' results (the audit's claims E1-E5 are decided from
// that CSV): any bytes either load into seed-ordered values or raise invalid_argument naming the
// file, and the seed-spread comparison of any two loaded runs is defined.

#include <cstdint>

#include "corbin/number/error.hpp"
#include "experiments.hpp"
#include "scratch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace corbin::audit;
  const auto path = scratch_dir() / "results.csv";
  write_bytes(path, data, size);
  try {
    const ExperimentRuns runs = load_experiment_runs(path.string());
    for (const auto& [name, values] : runs.runs) {
      if (values.seeds.size() != values.values.size() || values.values.size() != values.stopped.size())
        __builtin_trap();
      ClaimPart part("fuzz", Want::above);
      part.compare(values, runs.runs.begin()->second);
      (void)part.verdict();
      (void)part.certificate();
    }
  } catch (const corbin::invalid_argument& e) {
    if (e.parameter() != "experiment results") __builtin_trap();
  }
  return 0;
}
