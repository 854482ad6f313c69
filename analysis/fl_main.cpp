// corbin-fl: the `corbin fl` subcommand as its own executable, linked with libtorch (corbin
// execs it, see main.cpp).

#include <CLI/CLI.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "run_app.hpp"
#ifdef CORBIN_WITH_MPI
#include "corbin/fl/mpi_clients.hpp"
#endif

namespace {

/// The number of processes an MPI launcher started (mpirun, srun with PMIx), from the
/// environment, so that it is known before MPI_Init; 0 when none did.
long launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) return std::atol(value);
  return std::getenv("PMIX_RANK") != nullptr ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun the ranks share one run (cmd_fl.cpp, fl/mpi_clients.hpp); without MPI each
  // would be a whole run of its own, into the same directory.
#ifdef CORBIN_WITH_MPI
  std::optional<corbin::fl::mpi::Session> mpi;
  if (launched_ranks() > 0) {
    mpi.emplace(argc, argv);
    // Rank 0 speaks for the run: the others' errors reach it through fl::mpi::agree, and the
    // options, the same on every rank, fail the same everywhere.
    if (corbin::fl::mpi::world().rank != 0) std::cerr.rdbuf(nullptr);
  }
#else
  if (launched_ranks() > 1) {
    std::cerr << "corbin: mpirun started " << launched_ranks()
              << " processes, but must start one: this corbin-fl was built without MPI (CORBIN_WITH_MPI)\n";
    return 2;
  }
#endif
  CLI::App app{"corbin fl — federated training with a privacy mechanism"};
  app.require_subcommand(1);
  corbin::cli::add_fl(app);
  // The registry too, so that a GPU build of this helper alone can tell scripts its mechanisms.
  corbin::cli::add_mechanisms(app);
  // The test hook's libtorch kind: a c10::Error, whose what() carries a stack after its first line.
  return corbin::cli::run_app(app, argc, argv, [](const std::string& kind) {
    if (kind == "torch") TORCH_CHECK(false, "a libtorch failure");
  });
}
