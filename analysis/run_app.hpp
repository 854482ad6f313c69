#pragma once
// The error contract shared by `corbin` and `corbin-fl`: every failure ends as one line on stderr
// and a defined exit status, never a trace or `terminate called`:
//   2  bad input: an option, a value or a file (the line names it, the value and the rule);
//      also what a file system or a JSON file refused;
//   3  a certified decision could not be made at the working precision;
//   4  the machine could not do it (out of memory) or an internal failure (a library's error
//      with no name to give it; the line is the library's first line).
// CLI11's own codes for --help. The test hook CORBIN_TEST_THROW=<kind> makes every subcommand
// throw that kind of exception where its work begins, so a test can check each mapping through
// each entry point.

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <string>

#include "corbin/number/error.hpp"

namespace corbin::cli {

/// The first line of a message (libraries such as libtorch append their stack to what()).
inline std::string first_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

/// The option that sets a library parameter (the library names mathematical parameters, the
/// CLI its options): "w1" -> "--w", "exp_eps" -> "--exp-eps"; an index stays ("weights[2]" ->
/// "--weights[2]"); names that are already options, or have none, stay as they are.
inline std::string option_for(const std::string& parameter) {
  static const std::pair<const char*, const char*> kOptions[] = {
      {"alpha", "--alpha"}, {"exp_eps", "--exp-eps"}, {"eps", "--eps"}, {"w1", "--w"}, {"w2", "--w2"},
      {"center", "--center"}, {"radius", "--radius"}, {"bits", "--bits"}, {"variant", "--variant"},
      {"n", "--n"}, {"m", "--m"}, {"gamma", "--gamma"}, {"delta", "--delta"}, {"delta1", "--delta1"},
      {"p", "--p"}, {"sensitivity", "--sensitivity"}, {"relation", "--neighbours"}, {"role", "--role"},
      {"weights", "--weights"}, {"pairing", "--pairing"}, {"mechanism", "--mechanism"}, {"clients", "--clients"},
      {"dropout", "--dropout"}, {"model", "--model"}, {"z_transport", "--z-transport"}, {"entropy", "--entropy"},
      {"data", "--data"}, {"normalisation", "--normalisation"}, {"convolution", "--stacked-conv"},
      {"device", "--device"}, {"precision", "--precision"}, {"split", "--split"}, {"beta", "--beta"}, {"rounds", "--rounds"},
      {"checkpoint", "--resume"}, {"out", "--out"}, {"json", "--json"}, {"junit", "--junit"}};
  const auto bracket = parameter.find('[');
  const std::string base = parameter.substr(0, bracket);
  for (const auto& [name, option] : kOptions)
    if (base == name) return option + (bracket == std::string::npos ? "" : parameter.substr(bracket));
  return parameter;
}

/// Throws the exception CORBIN_TEST_THROW names, if it is set (tests only); `extra` throws the
/// kinds only its executable knows (corbin-fl: "torch", a c10::Error).
inline void test_throw_hook(const std::function<void(const std::string&)>& extra = {}) {
  const char* kind = std::getenv("CORBIN_TEST_THROW");
  if (kind == nullptr) return;
  const std::string k(kind);
  if (extra) extra(k);
  if (k == "filesystem")
    throw std::filesystem::filesystem_error("cannot open", std::filesystem::path("/test/hook"),
                                            std::make_error_code(std::errc::permission_denied));
  if (k == "json") {
    const auto parsed = nlohmann::json::parse("{not json");  // throws parse_error
    (void)parsed;
  }
  if (k == "bad_alloc") throw std::bad_alloc();
  if (k == "runtime") throw std::runtime_error("a library failed\nwith a second line");
  if (k == "invalid") throw invalid_argument("w", "NaN", "a number");
  if (k == "undecidable") throw undecidable("could not decide at 128 bits");
  if (k == "other") throw 42;
}

/// Thrown by a subcommand whose result is an exit status other than 0 with nothing to add on
/// stderr (`corbin check`: 1 a bound fails, 3 one is undecided).
struct ExitStatus {
  int status;
};

/// An error as its exit status and the line printed after "corbin: " (options named as the CLI
/// spells them). `corbin fl` under MPI sends it from the failing rank to rank 0.
inline std::pair<int, std::string> describe_exception(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const corbin::invalid_argument& e) {
    return {2, option_for(e.parameter()) + " is " + shortened(e.value()) + ", but must be " + e.rule()};
  } catch (const corbin::undecidable& e) {
    std::string text = e.what();
    const std::string library = "raise the working precision", cli = "raise --precision";
    if (const auto at = text.find(library); at != std::string::npos) text.replace(at, library.size(), cli);
    return {3, text};
  } catch (const std::filesystem::filesystem_error& e) {
    return {2, e.path1().string() + ": " + e.code().message()};
  } catch (const nlohmann::json::exception& e) {
    return {2, "a JSON file: " + shortened(first_line(e.what()))};
  } catch (const std::bad_alloc&) {
    return {4, "out of memory"};
  } catch (const std::exception& e) {
    return {4, "internal error: " + first_line(e.what())};
  } catch (...) {
    return {4, "internal error (an exception of unknown type)"};
  }
}

/// Parses and runs; returns the exit status (see the header comment).
inline int run_app(CLI::App& app, int argc, char** argv,
                   const std::function<void(const std::string&)>& extra_test_throw = {}) {
  if (std::getenv("CORBIN_TEST_THROW") != nullptr)
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
      sub->parse_complete_callback([extra_test_throw] { test_throw_hook(extra_test_throw); });
  try {
    app.parse(argc, argv);
  } catch (const ExitStatus& e) {
    return e.status;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "corbin: " << first_line(e.what()) << "\n";
    return 2;
  } catch (...) {
    const auto [status, line] = describe_exception(std::current_exception());
    std::cerr << "corbin: " << line << "\n";
    return status;
  }
  return 0;
}

}  // namespace corbin::cli
