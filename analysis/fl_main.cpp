// corbin-fl: the `corbin fl` subcommand as its own executable, linked with libtorch (corbin
// execs it, see main.cpp).

#include <CLI/CLI.hpp>
#include <torch/torch.h>

#include "commands.hpp"
#include "run_app.hpp"

int main(int argc, char** argv) {
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
