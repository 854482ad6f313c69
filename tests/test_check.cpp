// `corbin check SPEC` end to end: the paper's spec, each relation's holds/fails/undecided on exact
// values and on certified enclosures, the JSON and JUnit reports, and every malformed spec's exit 2
// naming the entry and the field with nothing written.

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "process.hpp"

namespace {

namespace fs = std::filesystem;

/// A fresh directory per test case (ctest runs cases side by side).
fs::path scratch() {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("corbin_check_" + std::to_string(getpid()) +
                                                    "_" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path write(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Outcome check(const fs::path& spec, const fs::path& dir) {
  return run_process({CORBIN_CLI_PATH, "check", spec.string(), "--json",
                      (dir / "out.json").string(), "--junit", (dir / "out.xml").string()});
}

/// One entry: quantity and params as TOML, relation, value as TOML.
std::string entry(const std::string& name, const std::string& quantity, const std::string& params,
                  const std::string& relation, const std::string& value) {
  return "[[bound]]\nname = \"" + name + "\"\nquantity = \"" + quantity + "\"\nparams = { " +
         params + " }\nrelation = \"" + relation + "\"\nvalue = " + value + "\n\n";
}

}  // namespace

TEST_CASE("corbin check: the paper's spec holds entry by entry", "[check]") {
  const fs::path dir = scratch();
  const Outcome o = check(fs::path(CORBIN_SOURCE_DIR) / "examples/paper.toml", dir);
  INFO(o.err);
  REQUIRE(o.status == 0);
  const auto report = nlohmann::json::parse(read(dir / "out.json"));
  REQUIRE(report["entries"].size() >= 10);
  CHECK(report["fails"] == 0);
  CHECK(report["undecided"] == 0);
  for (const auto& e : report["entries"]) CHECK(e["verdict"] == "holds");
  // Theorem 1's tight constant, exact on both sides.
  CHECK(report["entries"][0]["lhs"]["exact"] == "1/4");
  CHECK(report["entries"][0]["decided_by"] == "lhs == rhs (exact)");
  CHECK(o.out.find("16 hold, 0 fail, 0 undecided") != std::string::npos);
  // The table shows the computed left side beside the bound: Theorem 1's constant is 1/4 exactly.
  std::istringstream table(o.out);
  std::string header, first;
  std::getline(table, header);
  std::getline(table, first);
  CHECK(header.rfind("name", 0) == 0);
  CHECK(header.find("computed") < header.find("relation"));
  CHECK(first.find(" 1/4 ") != std::string::npos);
  // Passing JUnit cases carry their values as properties.
  const std::string xml = read(dir / "out.xml");
  CHECK(xml.find("<property name=\"computed\" value=\"1/4\"/>") != std::string::npos);
  std::size_t properties = 0;
  for (std::size_t at = xml.find("<properties>"); at != std::string::npos; at = xml.find("<properties>", at + 1))
    ++properties;
  CHECK(properties == report["entries"].size());
}

TEST_CASE("corbin check: each relation holds, fails or is undecided", "[check]") {
  const fs::path dir = scratch();
  const std::string e3 = "exp-eps = \"3\", bits = \"5\"", e1 = "eps = \"1\", bits = \"5\"";
  const std::string ratio_e1 = "{ quantity = \"pldp_ratio\", params = { " + e1 + " } }";
  struct Case {
    std::string quantity, params, relation, value, verdict;
  };
  const std::vector<Case> cases = {
      // Exact: sup_gap = 1/4 at e^ε = 3, d = 5.
      {"sup_gap", e3, "==", "\"1/4\"", "holds"},
      {"sup_gap", e3, "==", "\"0.25000001\"", "fails"},
      {"sup_gap", e3, "<=", "\"1/4\"", "holds"},
      {"sup_gap", e3, "<", "\"1/4\"", "fails"},
      {"sup_gap", e3, ">=", "\"1/4\"", "holds"},
      {"sup_gap", e3, ">", "\"1/4\"", "fails"},
      {"sup_gap", e3, ">", "\"0.2499\"", "holds"},
      {"sup_gap", e3, "<", "1", "holds"},
      // Certified: the ratio at ε = 1 is e = 2.718281828459045...
      {"pldp_ratio", e1, "<", "\"2.7182818284590453\"", "holds"},
      {"pldp_ratio", e1, ">", "\"2.7182818284590452\"", "holds"},
      {"pldp_ratio", e1, "<=", "\"2.7182818284590452\"", "fails"},
      {"pldp_ratio", e1, "==", "\"2.718281828459045\"", "fails"},
      // The same enclosure on both sides: equal, but no enclosure of width > 0 decides ==.
      {"pldp_ratio", e1, "==", ratio_e1, "undecided"},
      {"pldp_ratio", e1, "<=", ratio_e1, "undecided"},
  };
  std::string spec;
  for (std::size_t i = 0; i < cases.size(); ++i)
    spec += entry("case " + std::to_string(i), cases[i].quantity, cases[i].params,
                  cases[i].relation, cases[i].value);
  const Outcome o = check(write(dir, "relations.toml", spec), dir);
  INFO(o.err);
  CHECK(o.status == 1);  // one fails
  const auto report = nlohmann::json::parse(read(dir / "out.json"));
  REQUIRE(report["entries"].size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": " << cases[i].quantity << " " << cases[i].relation << " "
                 << cases[i].value);
    CHECK(report["entries"][i]["verdict"] == cases[i].verdict);
  }
  // A certified value is recorded as its enclosure's ends, rounded outward around e.
  const auto& lhs = report["entries"][8]["lhs"];
  CHECK(lhs["lower"].get<std::string>().rfind("2.71828182845904523", 0) == 0);
  CHECK(lhs["upper"].get<std::string>().rfind("2.71828182845904523", 0) == 0);
  CHECK(lhs["lower"] < lhs["upper"]);
  CHECK(report["entries"][8]["decided_by"] == "lhs.upper < rhs.lower");

  // JUnit: one testcase per entry, a <failure> per fail and a <skipped> per undecided.
  const std::string xml = read(dir / "out.xml");
  const auto count = [&](const std::string& pattern) {
    const std::regex re(pattern);
    return std::distance(std::sregex_iterator(xml.begin(), xml.end(), re), std::sregex_iterator());
  };
  const long fails =
      std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.verdict == "fails"; });
  CHECK(count("<testcase ") == long(cases.size()));
  CHECK(count("<failure ") == fails);
  CHECK(count("<skipped ") == 2);
  CHECK(xml.find("tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
                 std::to_string(fails) + "\"") != std::string::npos);

  // Undecided alone is exit 3; JSON specs read the same.
  const Outcome u =
      run_process({CORBIN_CLI_PATH, "check",
                   write(dir, "u.json", R"({"bound": [{"name": "u", "quantity": "pldp_ratio",
                                   "params": {"eps": "1"}, "relation": "==",
                                   "value": {"quantity": "pldp_ratio", "params": {"eps": "1"}}}]})")
                       .string()});
  CHECK(u.status == 3);
  CHECK(u.out.find("undecided") != std::string::npos);
}

TEST_CASE(
    "corbin check: the accountant's certified bounds decide accountant_eps and accountant_delta",
    "[check]") {
  const fs::path dir = scratch();
  // ε(1e-5) of 1000 compositions (m = 100, T = 10) at e^ε = 3, n = 50, all on LDPQ: the worst case
  // over every configuration of the others, certified in [35.5313, 37.3085] (the lower end is
  // attained with every other client at one end; the upper one dominates every choice of
  // configuration per coordinate).
  const std::string p =
      "exp-eps = \"3\", n = \"50\", gamma = \"1\", neighbours = \"replace\", m = \"100\", rounds = "
      "\"10\"";
  const std::string eps = p + ", delta = \"1e-5\"";
  // 10^6 compositions on a 64-cell grid at δ = 1e-300: certified in [9493.8, 20366.7].
  const std::string coarse =
      "exp-eps = \"3\", n = \"50\", gamma = \"1\", neighbours = \"replace\", m = \"1000000\", "
      "cells = \"64\", delta = \"1e-300\"";
  // A paired client removed: its partner's output reveals it (disjoint laws), ε is +∞.
  const std::string disjoint =
      "exp-eps = \"3\", n = \"50\", gamma = \"1/2\", neighbours = \"remove\", role = \"paired\", "
      "delta = \"1e-5\"";
  struct Case {
    std::string quantity, params, relation, value, verdict;
  };
  const std::vector<Case> cases = {
      {"accountant_eps", eps, "<=", "\"38\"", "holds"},
      {"accountant_eps", eps, ">=", "\"35.5\"", "holds"},
      {"accountant_eps", eps, "<=", "\"35.7\"", "undecided"},  // inside [35.5313, 35.8844]
      {"accountant_eps", eps, "<", "\"35.5\"", "fails"},
      // δ(38) <= 5.7e-6 < 1e-5, since ε(1e-5) <= 37.31 < 38: the two directions agree.
      {"accountant_delta", p + ", at-eps = \"38\"", "<=", "\"1e-5\"", "holds"},
      {"accountant_delta", p + ", at-eps = \"35\"", ">", "\"1e-5\"", "holds"},
      {"accountant_eps", coarse, ">=", "\"9000\"", "holds"},
      {"accountant_eps", coarse, "<=", "\"9000\"", "fails"},
      {"accountant_eps", coarse, "<=", "\"10000\"", "undecided"},
      {"accountant_eps", disjoint, ">", "\"1e100\"", "holds"},
      // Against another quantity: T3's counterexample (alpha = 2, n = 1800, r = 1/100).
      {"accountant_eps",
       "alpha = \"2\", n = \"1800\", gamma = \"1\", delta = \"1e-5\", radius = \"1/100\", "
       "neighbours = \"replace\"",
       ">",
       "{ quantity = \"eps_u_printed\", params = { alpha = \"2\", n = \"1800\", gamma = \"1\", "
       "delta = \"1e-5\", radius = \"1/100\" } }",
       "holds"},
  };
  std::string spec;
  for (std::size_t i = 0; i < cases.size(); ++i)
    spec += entry("case " + std::to_string(i), cases[i].quantity, cases[i].params,
                  cases[i].relation, cases[i].value);
  const Outcome o = check(write(dir, "account.toml", spec), dir);
  INFO(o.err);
  CHECK(o.status == 1);
  const auto report = nlohmann::json::parse(read(dir / "out.json"));
  REQUIRE(report["entries"].size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": " << cases[i].quantity << " " << cases[i].relation << " "
                 << cases[i].value);
    CHECK(report["entries"][i]["verdict"] == cases[i].verdict);
  }
  // The recorded enclosure is `corbin account`'s, rounded outward.
  const Outcome a = run_process({CORBIN_CLI_PATH, "account", "--exp-eps", "3", "--n", "50",
                                 "--gamma", "1", "--neighbours", "replace", "--m", "100",
                                 "--rounds", "10", "--delta", "1e-5", "--json"});
  REQUIRE(a.status == 0);
  const auto account = nlohmann::json::parse(a.out);
  const auto& lhs = report["entries"][0]["lhs"];
  const double lower = std::stod(lhs["lower"].get<std::string>()),
               upper = std::stod(lhs["upper"].get<std::string>());
  CHECK(lower <= account["eps_lower_approx"].get<double>());
  CHECK(lower == Approx(account["eps_lower_approx"].get<double>()).epsilon(1e-15));
  CHECK(upper >= account["eps_upper_approx"].get<double>());
  CHECK(upper == Approx(account["eps_upper_approx"].get<double>()).epsilon(1e-15));
  CHECK(lower > 35.5);
  CHECK(upper < 37.31);
  CHECK(std::stod(report["entries"][6]["lhs"]["upper"].get<std::string>()) < 20367);
  CHECK(report["entries"][9]["lhs"]["unbounded"] == true);

  // Malformed accountant entries: exit 2 naming the field.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {entry("n", "accountant_eps",
             "exp-eps = \"3\", gamma = \"1\", delta = \"1e-5\", neighbours = \"replace\"",
             "<=", "\"1\""),
       "bound[0] (n): params.n is missing, but must be given"},
      {entry("b", "accountant_eps",
             "exp-eps = \"3\", eps = \"1\", n = \"50\", gamma = \"1\", delta = \"1e-5\", "
             "neighbours = \"replace\"",
             "<=", "\"1\""),
       "bound[0] (b): params (the privacy budget) is given twice, but must be exactly one of "
       "exp-eps, eps, alpha"},
      {entry("a", "accountant_eps", p + ", delta = \"1e-5\", at-eps = \"1\"", "<=", "\"1\""),
       "bound[0] (a): params.at-eps is 1"},
      {entry("d", "accountant_delta", eps, "<=", "\"1\""),
       "bound[0] (d): params.at-eps is missing"},
      {entry("w", "accountant_eps", eps + ", w = \"1\"", "<=", "\"1\""),
       "bound[0] (w): params.w is given, but must be a known parameter of accountant_eps"},
      {entry(
           "g", "accountant_eps",
           "exp-eps = \"3\", n = \"50\", gamma = \"2\", delta = \"1e-5\", neighbours = \"replace\"",
           "<=", "\"1\""),
       "bound[0] (g): params.gamma is 2, but must be in [0, 1]"},
      {entry("r", "accountant_eps", eps + ", role = \"alone\"", "<=", "\"1\""),
       "bound[0] (r): params.role is 'alone'"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    fs::remove(dir / "out.json");
    const Outcome b = check(write(dir, "bad.toml", text), dir);
    CHECK(b.status == 2);
    CHECK(b.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out.json"));
  }
}

TEST_CASE(
    "corbin check: a malformed spec is exit 2 naming the entry and the field, nothing written",
    "[check]") {
  const fs::path dir = scratch();
  const std::string good = entry("good", "sup_gap", "exp-eps = \"3\"", "==", "\"1/4\"");
  struct Bad {
    std::string spec, message;
  };
  const std::vector<Bad> bad = {
      {entry("q", "sup_gapp", "exp-eps = \"3\"", "==", "\"1/4\""),
       "bound[1] (q): quantity is 'sup_gapp'"},
      {entry("r", "sup_gap", "exp-eps = \"3\"", "=<", "\"1/4\""),
       "bound[1] (r): relation is '=<', but must be one of ==, <=, >=, <, >"},
      {entry("p", "sup_gap", "exp-epss = \"3\"", "==", "\"1/4\""),
       "bound[1] (p): params.exp-epss is given"},
      {entry("v", "sup_gap", "exp-eps = \"3\"", "==", "\"1/x\""), "bound[1] (v): value is '1/x'"},
      {entry("f", "sup_gap", "exp-eps = \"3\"", "==", "0.25"), "bound[1] (f): value is 0.25"},
      {entry("e", "sup_gap", "exp-eps = \"1/2\"", "==", "\"1/4\""),
       "bound[1] (e): params.exp-eps is 1/2"},
      {entry("w", "mse", "exp-eps = \"3\", w = \"2\"", "<=", "\"1\""),
       "bound[1] (w): params.w is 2"},
      {entry("good", "sup_gap", "exp-eps = \"5\"", "<=", "\"1\""),
       "bound[1] (good): name is 'good', but must be a name no other entry has (bound[0] has it)"},
      {entry("u", "mse", "exp-eps = \"3\", n = \"100\"", "<=", "\"1\""),
       "bound[1] (u): params.n is given, but must be absent for mse, which does not use it"},
      {entry("g", "sup_gap", "exp-eps = \"3,4\"", "==", "\"1/4\""),
       "bound[1] (g): params.exp-eps is '3,4'"},
      {entry("b", "sup_gap", "bits = \"5\"", "==", "\"1/4\""),
       "bound[1] (b): params (the budget axis) is missing"},
      {entry("i", "sup_gap", "exp-eps = \"3\"",
             "==", "{ quantity = \"mse\", params = { w = \"9\", exp-eps = \"3\" } }"),
       "bound[1] (i): value.params.w is 9"},
      {"[[bound]]\nname = \"m\"\nquantity = \"sup_gap\"\nrelation = \"==\"\n",
       "bound[1] (m): value is missing"},
      {"[[bound]]\nname = \"x\"\nquantity = \"sup_gap\"\nrelation = \"==\"\nvalue = \"1\"\nextra = "
       "1\n",
       "bound[1] (x): extra is given"},
      {"[[bound]\n", "the spec is"},
  };
  for (const Bad& b : bad) {
    INFO(b.spec);
    fs::remove(dir / "out.json");
    fs::remove(dir / "out.xml");
    const Outcome o = check(write(dir, "bad.toml", good + b.spec), dir);
    CHECK(o.status == 2);
    CHECK(o.err.find(b.message) != std::string::npos);
    CHECK(o.err_lines() == 1);
    CHECK(o.out.empty());
    CHECK_FALSE(fs::exists(dir / "out.json"));
    CHECK_FALSE(fs::exists(dir / "out.xml"));
  }
  // Both reports or neither: an unwritable --junit leaves no --json behind.
  {
    const Outcome w = run_process({CORBIN_CLI_PATH, "check", write(dir, "good.toml", good).string(),
                                   "--json", (dir / "out.json").string(), "--junit",
                                   (dir / "missing" / "out.xml").string()});
    CHECK(w.status == 2);
    CHECK(w.err.find("--junit is") != std::string::npos);
    CHECK(w.out.empty());
    CHECK_FALSE(fs::exists(dir / "out.json"));
    for (const auto& item : fs::directory_iterator(dir))
      CHECK(item.path().filename().string().find(".tmp.") == std::string::npos);
  }
  // Thousands of entries past the limit: refused by count before anything is evaluated.
  std::string many;
  for (int i = 0; i < 10001; ++i) many += good;
  const Outcome o = check(write(dir, "many.toml", many), dir);
  CHECK(o.status == 2);
  CHECK(o.err.find("10001 entries, but must be at most 10000 entries") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out.json"));
}

TEST_CASE("corbin check: reports go only to regular files of their own, nothing else is touched",
          "[check][hostile]") {
  const fs::path dir = scratch();
  const fs::path spec = write(dir, "s.toml", entry("good", "sup_gap", "exp-eps = \"3\"", "==", "\"1/4\""));
  const std::string spec_text = read(spec);
  const auto run = [&](const std::vector<std::string>& outputs) {
    std::vector<std::string> argv = {CORBIN_CLI_PATH, "check", spec.string()};
    argv.insert(argv.end(), outputs.begin(), outputs.end());
    return run_process(argv);
  };
  const auto refused = [&](const Outcome& o, const std::string& option) {
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err.rfind("corbin: " + option + " is ", 0) == 0);
    CHECK(o.err_lines() == 1);
    CHECK(o.out.empty());
    CHECK(read(spec) == spec_text);
  };
  // A link (as /dev/stdout is) stays a link, to a file that keeps its bytes.
  const fs::path target = write(dir, "target", "kept");
  fs::create_symlink(target, dir / "link");
  refused(run({"--json", (dir / "link").string()}), "--json");
  CHECK(fs::is_symlink(dir / "link"));
  CHECK(read(target) == "kept");
  // A named pipe (which would block a reader) and a directory.
  REQUIRE(mkfifo((dir / "fifo").c_str(), 0600) == 0);
  refused(run({"--junit", (dir / "fifo").string()}), "--junit");
  CHECK(fs::is_fifo(dir / "fifo"));
  fs::create_directories(dir / "folder");
  refused(run({"--json", (dir / "folder").string()}), "--json");
  CHECK(fs::is_directory(dir / "folder"));
  // A device node (as /dev/full is), made here so that a failure harms nothing else: root only.
  if (geteuid() == 0 && mknod((dir / "full").c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0) {
    refused(run({"--junit", (dir / "full").string()}), "--junit");
    CHECK(fs::is_character_file(dir / "full"));
  }
  // The spec itself, one report twice (was: exit 2 with the JUnit XML left in it), and two names
  // of one file.
  refused(run({"--json", spec.string()}), "--json");
  refused(run({"--json", (dir / "same.x").string(), "--junit", (dir / "same.x").string()}), "--junit");
  CHECK_FALSE(fs::exists(dir / "same.x"));
  fs::create_hard_link(spec, dir / "spec_again.toml");
  refused(run({"--junit", (dir / "spec_again.toml").string()}), "--junit");
  // Where every check passes, both reports are written.
  const Outcome ok = run({"--json", (dir / "r.json").string(), "--junit", (dir / "r.xml").string()});
  CHECK(ok.status == 0);
  CHECK(nlohmann::json::parse(read(dir / "r.json"))["holds"] == 1);
}

TEST_CASE("corbin check: nesting bombs, long keys, control characters and huge values are one line",
          "[check][hostile]") {
  const fs::path dir = scratch();
  const auto refused = [&](const fs::path& spec, const std::string& message) {
    const Outcome o = check(spec, dir);
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(o.err_lines() == 1);
    CHECK(o.err.size() < 400);
    CHECK_FALSE(fs::exists(dir / "out.json"));
  };
  // Was SIGSEGV: arrays and inline tables 10 000 deep (20 KB), a JSON array 100 000 deep.
  refused(write(dir, "arrays.toml", "a = " + std::string(10000, '[') + std::string(10000, ']') + "\n"),
          "but must be nested at most 64 deep");
  std::string inline_tables = "a = ";
  for (int i = 0; i < 10000; ++i) inline_tables += "{b = ";
  inline_tables += "1" + std::string(10000, '}') + "\n";
  refused(write(dir, "tables.toml", inline_tables), "but must be nested at most 64 deep");
  refused(write(dir, "deep.json",
                "{\"bound\": " + std::string(100000, '[') + std::string(100000, ']') + "}"),
          "but must be nested at most 64 deep");
  // Was over 60 s (quadratic): a table header of 100 000 parts.
  std::string header = "[a";
  for (int i = 0; i < 100000; ++i) header += ".a";
  refused(write(dir, "header.toml", header + "]\n"), "but must be keys of at most 64 parts");
  // Not UTF-8 inside a literal-string key (toml11 read past its buffer there).
  refused(write(dir, "bytes.toml", "'\xff\xfe' = 1\n"), "is not UTF-8");
  // A 60 KB value is cut in the message, not echoed whole.
  refused(write(dir, "long.toml",
                entry("long", "sup_gap", "exp-eps = \"" + std::string(60000, '7') + "x\"", "==", "\"1\"")),
          "characters)");

  // Control characters in an entry's name (legal in TOML and JSON): the JUnit file stays XML
  // and the terminal sees no escape sequence.
  const fs::path spec = write(dir, "names.json",
                              "{\"bound\": [{\"name\": \"a\\u0000b\\u0001c\\u001b[31md\", \"quantity\": "
                              "\"sup_gap\", \"params\": {\"exp-eps\": \"3\"}, \"relation\": \"==\", "
                              "\"value\": \"1/4\"}]}");
  const Outcome o = check(spec, dir);
  INFO(o.err);
  CHECK(o.status == 0);
  CHECK(o.out.find('\x1b') == std::string::npos);
  const std::string xml = read(dir / "out.xml");
  for (const char c : xml) {
    INFO(static_cast<int>(static_cast<unsigned char>(c)));
    CHECK((static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t' || c == '\r'));
  }
  CHECK(xml.find("<testcase") != std::string::npos);

  // ε = 10^-200 (α about 2·10^200) is decided, not "value is -inf" (exit 2).
  const Outcome tiny = check(write(dir, "tiny.toml",
                                   entry("t", "sup_gap", "eps = \"1e-200\", bits = \"3\"", ">=", "\"7e200\"") +
                                       entry("u", "sup_gap", "eps = \"1e-200\", bits = \"3\"", "<=", "\"9e200\"")),
                             dir);
  INFO(tiny.err);
  CHECK(tiny.status == 0);
  CHECK(nlohmann::json::parse(read(dir / "out.json"))["holds"] == 2);
}

TEST_CASE("corbin check: --precision and an entry's precision decide what the default leaves undecided",
          "[check]") {
  const fs::path dir = scratch();
  // e = 2.71828182845904523536028747135266249775724709369995957496696762772…; the bound is above
  // it by 3.7e-61, finer than the default precision (about 40 digits at d = 5) can tell.
  const std::string just_above = "\"2.718281828459045235360287471352662497757247093699959574966968\"";
  const fs::path spec =
      write(dir, "tight.toml", entry("e, tightly", "pldp_ratio", "eps = \"1\", bits = \"5\"", "<", just_above));
  const Outcome plain = run_process({CORBIN_CLI_PATH, "check", spec.string()});
  CHECK(plain.status == 3);
  CHECK(plain.out.find("undecided") != std::string::npos);
  const Outcome fine = run_process({CORBIN_CLI_PATH, "check", spec.string(), "--precision", "400", "--json",
                                    (dir / "fine.json").string()});
  INFO(fine.err);
  CHECK(fine.status == 0);
  CHECK(read(dir / "fine.json").find("\"precision_bits\": 400") != std::string::npos);
  // The entry's own precision, without the option.
  const fs::path own = write(dir, "own.toml",
                             "[[bound]]\nname = \"e, tightly\"\nquantity = \"pldp_ratio\"\nparams = { eps = \"1\", "
                             "bits = \"5\" }\nrelation = \"<\"\nvalue = " + just_above + "\nprecision = \"400\"\n");
  CHECK(run_process({CORBIN_CLI_PATH, "check", own.string()}).status == 0);
  // Too little, or not a number: one line naming it, exit 2.
  const Outcome low = run_process({CORBIN_CLI_PATH, "check", spec.string(), "--precision", "8"});
  CHECK(low.status == 2);
  CHECK(low.err.find("--precision") != std::string::npos);
  const fs::path bad = write(dir, "bad.toml",
                             "[[bound]]\nname = \"x\"\nquantity = \"sup_gap\"\nparams = { exp-eps = \"3\" }\n"
                             "relation = \"<=\"\nvalue = \"1\"\nprecision = \"many\"\n");
  const Outcome b = run_process({CORBIN_CLI_PATH, "check", bad.string()});
  CHECK(b.status == 2);
  CHECK(b.err_lines() == 1);
  CHECK(b.err.find("precision") != std::string::npos);
  // The precision asked for in all is bounded (an entry at 2^16 bits took 1.8 s, and 10 000 were
  // allowed: hours): 40 entries at 2^16 are refused before any is evaluated, 39 are within it.
  std::string many;
  for (int i = 0; i < 40; ++i)
    many += "[[bound]]\nname = \"e" + std::to_string(i) + "\"\nquantity = \"sup_gap\"\nparams = { exp-eps = \"3\" }\n"
            "relation = \"<=\"\nvalue = \"1\"\nprecision = \"65536\"\n";
  const Outcome heavy = run_process({CORBIN_CLI_PATH, "check", write(dir, "heavy.toml", many).string()});
  CHECK(heavy.status == 2);
  CHECK(heavy.err_lines() == 1);
  CHECK(heavy.err.find("the spec's precision is 40 entries at up to 65536 bits") != std::string::npos);
  const Outcome global = run_process({CORBIN_CLI_PATH, "check", spec.string(), "--precision", "65536", "--json",
                                      (dir / "one.json").string()});
  CHECK(global.status != 2);  // one entry at 2^16: 256 units of 10 000
}

TEST_CASE("corbin check: the aggregate MSE at given inputs, a list or a range, and its refusals", "[check]") {
  const fs::path dir = scratch();
  // LDP-FL at e^ε = 3, r = 1/20, inputs −1/20, 1/40, 0, 1/20: 11/5120 exactly (test_cli's
  // derivation); CorBin-FL at the same inputs below it, as an entry comparing two quantities.
  const std::string ldp = "mechanism = \"ldp\", exp-eps = \"3\", radius = \"1/20\", weights = [\"-1/20\", \"1/40\", 0, "
                          "\"1/20\"]";
  const std::string corbin = "mechanism = \"corbin\", exp-eps = \"3\", radius = \"1/20\", weights = "
                             "\"-1/20,1/40,0,1/20\"";
  const fs::path spec = write(dir, "at.toml",
                              entry("LDP-FL at these inputs", "aggregate_mse", ldp, "==", "\"11/5120\"") +
                                  entry("CorBin-FL below it", "aggregate_mse", corbin, "<",
                                        "{ quantity = \"aggregate_mse\", params = { " + ldp + " } }") +
                                  entry("one off", "aggregate_mse", ldp, "==", "\"11/5121\""));
  const Outcome o = check(spec, dir);
  INFO(o.out << o.err);
  CHECK(o.status == 1);
  CHECK(o.out.find("2 hold, 1 fail, 0 undecided") != std::string::npos);
  // Bad inputs: one line naming the parameter, exit 2.
  for (const auto& [params, named] : std::vector<std::pair<std::string, std::string>>{
           {"mechanism = \"ldp\", exp-eps = \"3\", weights = []", "params.weights"},
           {"mechanism = \"ldp\", exp-eps = \"3\", weights = [0.5]", "params.weights[0]"},
           {"mechanism = \"ldp\", exp-eps = \"3\", weights = [\"0\", \"2\"]", "params.weights"},
           {"mechanism = \"ldp\", exp-eps = \"3\", weights = [\"0\"], n = \"1\"", "params.n"},
           {"mechanism = \"ldp\", exp-eps = \"3\", weights = { a = 1 }", "params.weights"}}) {
    INFO(params);
    const fs::path bad = write(dir, "bad.toml", entry("bad", "aggregate_mse", params, "<=", "\"1\""));
    const Outcome b = check(bad, dir);
    CHECK(b.status == 2);
    CHECK(b.err_lines() == 1);
    CHECK(b.err.find(named) != std::string::npos);
  }
}

TEST_CASE("corbin check: the aggregate MSE is exact where the room's is, so a bound at equality is decided",
          "[check]") {
  const fs::path dir = scratch();
  // LDP-FL at e^ε = 3 (α = 2), r = 1/20, n = 100: (rα)²/n = 1/10^4 exactly; CorBin-FL half of it.
  const std::string p = "mechanism = \"ldp\", exp-eps = \"3\", n = \"100\", radius = \"1/20\"";
  const std::string q = "mechanism = \"corbin\", exp-eps = \"3\", n = \"100\", radius = \"1/20\"";
  const fs::path spec = write(dir, "equal.toml",
                              entry("LDP-FL at its worst", "aggregate_mse", p, "<=", "\"1/10000\"") +
                                  entry("LDP-FL exactly", "aggregate_mse", p, "==", "\"1/10000\"") +
                                  entry("CorBin-FL exactly half", "aggregate_mse", q, "==", "\"1/20000\""));
  const Outcome o = check(spec, dir);
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(o.out.find("3 hold, 0 fail, 0 undecided") != std::string::npos);
}

TEST_CASE("corbin check: a bound may be a factor times another mechanism's or another entry's value, exactly",
          "[check]") {
  const fs::path dir = scratch();
  // e^ε = 3 (α = 2), r = 1/20, n = 100: LDP-FL's worst case (rα)²/n = 1/10^4, CorBin-FL's half of
  // it, AugCorBin-FL's (γ = 1/2: 50 alone, 25 pairs) 3/(4·10^4) (test_cli's derivation).
  const std::string setting = "exp-eps = \"3\", n = \"100\", radius = \"1/20\"";
  const std::string ldp = "mechanism = \"ldp\", " + setting, corbin = "mechanism = \"corbin\", " + setting;
  const std::string aug = "mechanism = \"augcorbin\", gamma = \"1/2\", " + setting;
  const std::string half_ldp = "{ times = \"1/2\", mechanism = \"ldp\" }";
  const fs::path spec = write(
      dir, "factor.toml",
      entry("CorBin-FL at most half LDP-FL's", "aggregate_mse", corbin, "<=", half_ldp) +
          entry("CorBin-FL exactly half LDP-FL's", "aggregate_mse", corbin, "==", half_ldp) +
          // γ is AugCorBin-FL's: LDP-FL at the same setting does not read it, and is not refused for it.
          entry("AugCorBin-FL at most half LDP-FL's", "aggregate_mse", aug, "<=", half_ldp) +
          entry("AugCorBin-FL at 3/4 of the LDP-FL entry", "aggregate_mse", aug, "==",
                "{ times = \"3/4\", entry = \"LDP-FL\" }") +
          entry("LDP-FL", "aggregate_mse", ldp, "==", "\"1/10000\"") +
          // Theorem 1: the tight constant is the paper's bound over 32 (at d = 5, 1/4 = 8/32).
          entry("sup_gap is 1/32 of the paper's bound", "sup_gap", "exp-eps = \"3\", bits = \"5\"", "==",
                "{ times = \"1/32\", quantity = \"paper_gap_bound\", params = { exp-eps = \"3\", bits = \"5\" } }") +
          // Certified: at ε = 1 (α ≈ 2.16) CorBin-FL's worst case is below half LDP-FL's (ratio α²/(2(α − 1))).
          entry("CorBin-FL below half LDP-FL's at eps = 1", "aggregate_mse",
                "mechanism = \"corbin\", eps = \"1\", n = \"100\", radius = \"1/20\"", "<", half_ldp));
  const Outcome o = check(spec, dir);
  INFO(o.out << o.err);
  CHECK(o.status == 1);  // AugCorBin-FL is not within half
  const auto report = nlohmann::json::parse(read(dir / "out.json"));
  const auto& entries = report["entries"];
  REQUIRE(entries.size() == 7);
  const std::vector<std::string> verdicts = {"holds", "holds", "fails", "holds", "holds", "holds", "holds"};
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    INFO(entries[i]["name"]);
    CHECK(entries[i]["verdict"] == verdicts[i]);
  }
  // The value compared is the factor times the other mechanism's, exactly; the value before it too.
  CHECK(entries[0]["rhs"]["exact"] == "1/20000");
  CHECK(entries[0]["rhs_before_factor"]["exact"] == "1/10000");
  CHECK(entries[0]["value"]["times"] == "1/2");
  CHECK(entries[0]["value"]["mechanism"] == "ldp");
  CHECK(entries[0]["decided_by"] == "lhs.upper <= rhs.lower");
  CHECK(entries[2]["lhs"]["exact"] == "3/40000");
  CHECK(entries[3]["rhs"]["exact"] == "3/40000");
  CHECK(entries[3]["value"]["entry"] == "LDP-FL");
  CHECK(entries[5]["rhs"]["exact"] == "1/4");
  CHECK(entries[6]["rhs"].contains("lower"));
  // The table shows the value compared beside what it names.
  CHECK(o.out.find("1/2 × ldp's aggregate_mse = 1/20000") != std::string::npos);
  CHECK(o.out.find("3/4 × entry 'LDP-FL' = 3/40000") != std::string::npos);
  CHECK(o.out.find("6 hold, 1 fail, 0 undecided") != std::string::npos);
  // JUnit: each case's time in seconds, and the suite's, their sum to the rounding of each.
  const std::string xml = read(dir / "out.xml");
  const std::regex time_re("<testcase [^>]*time=\"([0-9]+\\.[0-9]{6})\"");
  double cases = 0;
  long timed = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), time_re); it != std::sregex_iterator(); ++it, ++timed)
    cases += std::stod((*it)[1]);
  CHECK(timed == 7);
  std::smatch suite;
  REQUIRE(std::regex_search(xml, suite, std::regex("<testsuite [^>]*time=\"([0-9]+\\.[0-9]{6})\"")));
  CHECK(std::abs(std::stod(suite[1]) - cases) <= 8 * 0.5e-6);
  CHECK(xml.find("<property name=\"bound\" value=\"1/20000\"/><property name=\"bound_of\" "
                 "value=\"1/2 × ldp&apos;s aggregate_mse\"/>") != std::string::npos);

  // Bad factors and references: one line naming the field, exit 2, nothing written.
  const std::string q = "aggregate_mse";
  for (const auto& [quantity, params, value, named] : std::vector<std::array<std::string, 4>>{
           {q, corbin, "{ times = \"0\", mechanism = \"ldp\" }", "value.times is '0'"},
           {q, corbin, "{ times = \"-1/2\", mechanism = \"ldp\" }", "value.times"},
           {q, corbin, "{ times = 0.5, mechanism = \"ldp\" }", "value.times"},
           {q, corbin, "{ times = \"1/2\" }", "bound[0] (bad): value is"},
           {q, corbin, "{ mechanism = \"ldp\", entry = \"bad\" }", "bound[0] (bad): value is"},
           {q, corbin, "{ mechanism = \"ldp\", params = { n = \"2\" } }", "value.params"},
           {q, corbin, "{ mechanism = \"nope\" }", "value.mechanism is 'nope'"},
           {q, corbin, "{ entry = \"nope\" }", "value.entry is 'nope'"},
           {q, corbin, "{ entry = \"bad\" }", "value.entry is 'bad'"},
           {"sup_gap", "exp-eps = \"3\"", "{ mechanism = \"ldp\" }", "value.mechanism"},
           {"accountant_eps", "exp-eps = \"3\", n = \"50\", gamma = \"1\", delta = \"1e-5\", neighbours = \"replace\"",
            "{ times = \"2\", mechanism = \"ldp\" }", "value.mechanism"}}) {
    INFO(value);
    fs::remove(dir / "out.json");
    const Outcome b = check(write(dir, "bad.toml", entry("bad", quantity, params, "<=", value)), dir);
    CHECK(b.status == 2);
    CHECK(b.err_lines() == 1);
    CHECK(b.err.find(named) != std::string::npos);
    CHECK(!fs::exists(dir / "out.json"));
  }
}

TEST_CASE("corbin check: a JSON spec's key given twice, an integer beyond 64 bits and a number no double "
          "holds are refused naming the field, on one short line",
          "[check][hostile]") {
  const fs::path dir = scratch();
  const auto refused = [&](const std::string& name, const std::string& text, const std::string& message) {
    const Outcome o = check(write(dir, name, text), dir);
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(o.err_lines() == 1);
    CHECK(o.err.size() < 300);
    CHECK(!fs::exists(dir / "out.json"));
  };
  const auto spec = [](const std::string& params, const std::string& value) {
    return "{\"bound\": [{\"name\": \"a\", \"quantity\": \"sup_gap\", \"params\": {" + params +
           "}, \"relation\": \"==\", \"value\": " + value + "}]}";
  };
  // Was: the last "bits" kept silently (d = 6: sup_gap 1/8, the entry failed); TOML refuses it.
  refused("dup.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\", \"bits\": \"6\"", "\"1/4\""),
          "dup.json' at bound[0].params.bits is given twice, but must be each key once");
  refused("dup_top.json", "{\"bound\": [], " + spec("\"exp-eps\": \"3\"", "\"1/4\"").substr(1),
          "dup_top.json' at bound is given twice");
  // Was: "value is 1.8446744073709552e+19, but must be ... (a float is a double ...)".
  refused("big.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\"", "18446744073709551616"),
          "at bound[0].value is 18446744073709551616, but must be an integer in [−2^63, 2^64 − 1]");
  // Was: the parser's message with all 5000 digits and no field.
  refused("digits.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\"", std::string(5000, '9')),
          "at bound[0].value is 99999");
  refused("digits.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\"", std::string(5000, '9')), "(5000 characters)");
  // A quoted long value is cut once: its length is the value's (was "(85 characters)").
  refused("long.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\"", "\"" + std::string(100000, '1') + "x\""),
          "(100001 characters), but must be a number such as 1/4");
  // The same keys once each: the entry holds.
  const Outcome o = check(write(dir, "once.json", spec("\"exp-eps\": \"3\", \"bits\": \"5\"", "\"1/4\"")), dir);
  INFO(o.err);
  CHECK(o.status == 0);
}

TEST_CASE("corbin check: an e^ε that looks like an ε is warned about, once, and still evaluated", "[check]") {
  const fs::path dir = scratch();
  // 1.0986 = ln 3 written where e^ε is read: ε = ln 1.0986 = 0.09404, twelve times smaller.
  const fs::path spec = write(dir, "small.toml",
                              entry("ln 3 as e^eps", "sup_gap", "exp-eps = \"1.0986\", bits = \"5\"", ">=", "\"0\"") +
                                  entry("three", "sup_gap", "exp-eps = \"3\", bits = \"5\"", "==", "\"1/4\""));
  Outcome o = check(spec, dir);
  INFO(o.err);
  CHECK(o.status == 0);
  CHECK(o.err == "corbin: warning: bound[0] (ln 3 as e^eps): params.exp-eps 1.0986 is e^ε, so ε = 0.09404; for "
                 "ε = 1.0986 give params.eps = 1.0986\n");
  // At 3/2 and above no warning (e^ε = 1.5 is ε = 0.405).
  o = check(write(dir, "edge.toml", entry("edge", "sup_gap", "exp-eps = \"3/2\", bits = \"5\"", ">=", "\"0\"")), dir);
  CHECK(o.status == 0);
  CHECK(o.err.empty());
}
