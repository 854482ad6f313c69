// corbin-fl: the `corbin fl` subcommand as its own executable, linked with libtorch (corbin
// execs it, see main.cpp).

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "run_app.hpp"

int main(int argc, char** argv) {
  CLI::App app{"corbin fl — federated training with a privacy mechanism"};
  app.require_subcommand(1);
  corbin::cli::add_fl(app);
  return corbin::cli::run_app(app, argc, argv);
}
