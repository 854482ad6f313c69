// The library speaks mathematics: its errors name parameters (w1, radius, n), and only the CLI
// knows its options (analysis/run_app.hpp maps the names). So no option spelling ("--x") appears
// anywhere under src/, and errors raised through the library's entry points name parameters.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "corbin/fl/accounting.hpp"
#include "corbin/fl/checkpoint.hpp"
#include "corbin/fl/protocol.hpp"
#include "corbin/fl/registry.hpp"
#include "corbin/number/error.hpp"
#include "corbin/quantizer/budget.hpp"
#include "parameter_of.hpp"

using namespace corbin;
namespace fs = std::filesystem;

TEST_CASE("no option spelling under src/", "[names]") {
  const std::regex option("--[A-Za-z]");
  std::vector<std::string> found;
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CORBIN_SOURCE_DIR) / "src")) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::ifstream f(entry.path());
    std::size_t number = 0;
    for (std::string line; std::getline(f, line);) {
      ++number;
      if (std::regex_search(line, option)) found.push_back(entry.path().string() + ":" + std::to_string(number) + ": " + line);
    }
  }
  CHECK(files > 100);  // the scan saw the library
  for (const auto& line : found) UNSCOPED_INFO(line);
  CHECK(found.empty());
}

TEST_CASE("library errors name parameters, not options", "[names]") {
  CHECK(parameter_of([] { Budget::make(Budget::Kind::eps, Rational(-1)); }) == "eps");
  CHECK(parameter_of([] { Budget::make(Budget::Kind::exp_eps, Rational(1)); }) == "exp_eps");
  CHECK(Budget::make(Budget::Kind::exp_eps, Rational(3)).describe() == "exp_eps = 3");
  CHECK(parameter_of([] { fl::parse_z_transport("pigeon"); }) == "z_transport");
  CHECK(parameter_of([] { fl::Registry::global().find("nonesuch"); }) == "mechanism");
  const fs::path empty = fs::temp_directory_path() / "corbin_no_checkpoint_here";
  fs::create_directories(empty);
  CHECK(parameter_of([&] { fl::load_checkpoint(empty, {}, 1); }) == "checkpoint");
  fs::remove_all(empty);
  fl::MechanismConfig augcorbin;
  augcorbin.mechanism = &fl::Registry::global().find("augcorbin");
  CHECK(parameter_of([&] { fl::account_run(augcorbin, 10, kMaxCompositions, 2); }) == "rounds");
}
