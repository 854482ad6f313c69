// corbin: exact and certified answers to the CorBin-FL paper's claims. See `corbin --help`.
// Exit status: 0 success, 2 bad input (one line on stderr naming the option, value and rule),
// 3 a certified decision could not be made at the working precision.
//
// `corbin fl` runs the helper `corbin-fl` built (and installed) beside this executable with
// libtorch, so that the other subcommands do not pay libtorch's start-up (about half a second per
// call).

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "corbin/version.hpp"
#include "data_files.hpp"
#include "run_app.hpp"

namespace {

int exec_fl(char** argv) {
  const auto self = corbin::cli::executable_dir();
  const std::string helper = (self.empty() ? std::filesystem::path(argv[0]).parent_path() : self) / "corbin-fl";
  execv(helper.c_str(), argv);
  std::cerr << "corbin: fl is not available: " << helper
            << (corbin::cli::installed() ? " is not installed (Debian package corbin-fl)\n"
                                         : " was not built (configure with libtorch-dev installed and CORBIN_WITH_TORCH=ON)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "fl") == 0) return exec_fl(argv);
  corbin::cli::take_sampler_arguments(argc, argv);
  CLI::App app{"corbin — exact audit of the CorBin-FL paper's privacy and utility claims"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("corbin ") + corbin::kVersion);
  corbin::cli::add_joint(app);
  corbin::cli::add_gap(app);
  corbin::cli::add_pldp(app);
  corbin::cli::add_mechanisms(app);
  corbin::cli::add_ucdp(app);
  corbin::cli::add_account(app);
  corbin::cli::add_calibrate(app);
  corbin::cli::add_dropout(app);
  corbin::cli::add_leakage(app);
  corbin::cli::add_audit(app);
  corbin::cli::add_sweep(app);
  corbin::cli::add_check(app);
  corbin::cli::add_merge(app);
  corbin::cli::add_conform(app);
  app.add_subcommand("fl", "federated training with a privacy mechanism (libtorch; `corbin fl --help`)")
      ->allow_extras();
  // CLI11 reports an unknown first word as "A subcommand is required": name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::cerr << "corbin: " << corbin::invalid_argument("the subcommand", corbin::quote(argv[1]), "one of " + names).what()
                << "\n";
      return 2;
    }
  }
  return corbin::cli::run_app(app, argc, argv);
}
