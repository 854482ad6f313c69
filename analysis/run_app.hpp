#pragma once
// The error contract shared by `corbin` and `corbin-fl`: exit 2 with one line for bad input,
// 3 for an undecidable branch, CLI11's own codes for --help.

#include <CLI/CLI.hpp>
#include <iostream>

#include "corbin/number/error.hpp"

namespace corbin::cli {

inline int run_app(CLI::App& app, int argc, char** argv) {
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

}  // namespace corbin::cli
