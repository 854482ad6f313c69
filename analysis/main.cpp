// corbin: exact and certified answers to the CorBin-FL paper's claims. See `corbin --help`.
// Exit status: 0 success, 2 bad input (one line on stderr naming the option, value and rule),
// 3 a certified decision could not be made at the working precision.

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "corbin/number/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"corbin — exact audit of the CorBin-FL paper's privacy and utility claims"};
  app.require_subcommand(1);
  corbin::cli::add_joint(app);
  corbin::cli::add_gap(app);
  corbin::cli::add_pldp(app);
  corbin::cli::add_ucdp(app);
  corbin::cli::add_calibrate(app);
  corbin::cli::add_dropout(app);
  corbin::cli::add_leakage(app);
  corbin::cli::add_audit(app);
  corbin::cli::add_sweep(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "corbin: " << e.what() << "\n";
    return 2;
  } catch (const corbin::invalid_argument& e) {
    std::cerr << "corbin: " << e.what() << "\n";
    return 2;
  } catch (const corbin::undecidable& e) {
    std::cerr << "corbin: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
