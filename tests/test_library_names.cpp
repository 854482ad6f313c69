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

namespace {

/// A line of C++'s comment and string literals, each followed by a space (a line-based reading:
/// a block comment's inner lines, which start with " *" or "///" here, are comments too).
std::string words_of(const std::string& line) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\' && i + 1 < line.size()) {
        out += line[++i];
      } else if (c == '"') {
        in_string = false;
        out += ' ';
      } else {
        out += c;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '\'' && i + 2 < line.size()) {  // a character literal ('"', '\\''): skipped
      i += line[i + 1] == '\\' ? 3 : 2;
    } else if (c == '/' && i + 1 < line.size() && (line[i + 1] == '/' || line[i + 1] == '*')) {
      return out + " " + line.substr(i);
    } else if (c == '*' && line.find_first_not_of(' ') == i) {
      return out + " " + line.substr(i);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("no option spelling under src/", "[names]") {
  const std::regex option("--[A-Za-z]");
  std::vector<std::string> found;
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CORBIN_SOURCE_DIR) / "src")) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::ifstream f(entry.path());
    std::size_t number = 0;
    const bool prose = entry.path().extension() == ".md";
    for (std::string line; std::getline(f, line);) {
      ++number;
      // In code only its words can spell an option: comments and string literals ("--n" in a
      // message); `--last` is a decrement.
      if (std::regex_search(prose ? line : words_of(line), option))
        found.push_back(entry.path().string() + ":" + std::to_string(number) + ": " + line);
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
