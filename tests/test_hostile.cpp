// Issue 10's reproducers against the `corbin` executable: each hostile input the outside probe
// found now ends as one line on stderr and a defined exit status (2 bad input, 3 undecidable,
// 4 out of memory or internal), with nothing half-written and nothing executed.

#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.hpp"

namespace {

Outcome corbin(std::vector<std::string> args, const std::vector<std::string>& env = {},
               const std::filesystem::path& cwd = {}) {
  args.insert(args.begin(), CORBIN_CLI_PATH);
  return run_process(args, env, cwd);
}

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("corbin_hostile_" + name + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// One line on stderr, naming `name`, and status 2.
void refused(const Outcome& o, const std::string& name) {
  INFO(o.err);
  CHECK(o.status == 2);
  CHECK(o.err_lines() == 1);
  CHECK(o.err.find(name) != std::string::npos);
}

}  // namespace

TEST_CASE("a round whose CorBin-FL MSE is exactly 0 reports an unbounded improvement", "[cli][hostile]") {
  const Outcome o = corbin({"mse", "--exp-eps", "3", "--weights", "0,0", "--json"});
  REQUIRE(o.status == 0);  // was: boost overflow_error, exit 134
  const auto j = nlohmann::json::parse(o.out);
  CHECK(j["mse"] == "0");
  CHECK(j["improvement"].is_null());
  refused(corbin({"mse", "--exp-eps", "3", "--weights", ""}), "--weights");  // was: silently the pair mode
  refused(corbin({"mse", "--exp-eps", "3", "--weights", "1/2,"}), "--weights");
}

TEST_CASE("the analytic Gaussian is calibrated at very large ε, or refused by name", "[cli][hostile]") {
  for (const char* eps : {"1e9", "1e12"}) {
    INFO(eps);
    const Outcome o = corbin({"calibrate", "gaussian", "--eps", eps, "--delta", "1e-5", "--json"});
    REQUIRE(o.status == 0);
    const auto j = nlohmann::json::parse(o.out);
    // Was σ = 1 and δ(σ) = NaN: now δ at the returned σ is the target, and σ shrinks like 1/√ε.
    CHECK(std::stod(j["delta_at_sigma"].get<std::string>()) == Approx(1e-5).epsilon(1e-6));
    CHECK(j["sigma_approx"].get<double>() < 1e-4);
  }
  refused(corbin({"calibrate", "gaussian", "--eps", "1e20", "--delta", "1e-5"}), "--eps");
  // ε past the range of certified arithmetic: a named refusal, not exit 3 at any precision.
  refused(corbin({"ucdp", "--eps", "1e20", "--precision", "10000", "--n", "50", "--gamma", "1/2", "--delta", "1e-5"}),
          "--eps");
}

TEST_CASE("integers are range-checked before conversion, and grids before output", "[cli][hostile]") {
  const Outcome bits = corbin({"sweep", "--quantity", "mse", "--exp-eps", "3", "--bits", "18446744073709551616"});
  refused(bits, "--bits");  // was: d = 0
  CHECK(bits.out.empty());
  refused(corbin({"sweep", "--quantity", "eps_u_printed", "--exp-eps", "3", "--m", "18446744073709551617"}), "--m");
  const Outcome big =
      corbin({"ucdp", "--m", "9223372036854775808", "--n", "50", "--gamma", "1/2", "--delta", "1e-5", "--exp-eps", "3"});
  refused(big, "--m");
  CHECK(big.err.find("-9") == std::string::npos);  // no wrapped, negative number
  // 10^9 points on three axes: refused before any work (was 3 GB and no output).
  const Outcome grid =
      corbin({"sweep", "--quantity", "mse", "--exp-eps", "2:3:1000", "--bits", "0:5:1000", "--w", "0:1/2:1000"});
  refused(grid, "grid");
  CHECK(grid.out.empty());
  // A bad value late in an axis: nothing is printed (was: the header and rows, then exit 2).
  const Outcome late = corbin({"sweep", "--quantity", "mse", "--exp-eps", "3", "--w", "0,1/2,2"});
  refused(late, "--w");
  CHECK(late.out.empty());
  refused(corbin({"ucdp", "--exact", "--exp-eps", "3", "--n", "1099511627776", "--gamma", "1/2", "--delta", "1e-5"}),
          "--n");  // was: bad_alloc
}

TEST_CASE("options are validated where given, even unused or empty", "[cli][hostile]") {
  refused(corbin({"leakage", "--alpha", "2", "--bits", "5", "--precision", "abc"}), "--precision");
  refused(corbin({"joint", "--exp-eps", "3", "--precision", ""}), "--precision");
  refused(corbin({"joint", "--alpha", ""}), "--alpha");
  const Outcome unknown = corbin({"frobnicate"});
  refused(unknown, "frobnicate");  // was: "A subcommand is required"
  // A 100 000-character value is echoed as its first characters and its length.
  const Outcome echo = corbin({"joint", "--exp-eps", "x" + std::string(100000, '1')});
  refused(echo, "--exp-eps");
  CHECK(echo.err.size() < 400);
  CHECK(echo.err.find("100001 characters") != std::string::npos);
}

TEST_CASE("audit: --out is checked, and --python and --out are never seen by a shell", "[cli][hostile]") {
  const auto dir = fresh_dir("audit");
  const Outcome o = corbin({"audit", "--quick", "--python", "/usr/bin/python3; touch injected;", "--out", "a b"}, {}, dir);
  CHECK(o.status == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "injected"));  // was: created by the shell
  CHECK_FALSE(std::filesystem::exists(dir / "a"));         // was: a stray file outside the folder
  CHECK(std::filesystem::exists(dir / "a b" / "audit.md"));
  refused(corbin({"audit", "--quick", "--out", ""}, {}, dir), "--out");  // was: the current folder
  std::ofstream(dir / "file") << "x";
  refused(corbin({"audit", "--quick", "--out", "file"}, {}, dir), "--out");  // was: terminate called
  refused(corbin({"audit", "--quick", "--out", "/proc/corbin"}), "--out");
  std::filesystem::remove_all(dir);
}

TEST_CASE("every foreign exception through every subcommand ends as one line and a defined status", "[cli][hostile]") {
  const std::vector<std::vector<std::string>> entry_points = {
      {"joint", "--exp-eps", "3"},
      {"mse", "--exp-eps", "3"},
      {"gap", "--exp-eps", "3"},
      {"pldp", "--exp-eps", "3"},
      {"ucdp", "--exp-eps", "3", "--n", "50", "--gamma", "1/2", "--delta", "1e-5"},
      {"calibrate", "laplace", "--eps", "1"},
      {"dropout", "--n", "2000", "--p", "1/10", "--delta", "1/10", "--delta1", "1/100", "--alpha", "2"},
      {"leakage", "--alpha", "2"},
      {"audit", "--quick", "--no-figures", "--out", (std::filesystem::temp_directory_path() / "corbin_throw").string()},
      {"sweep", "--quantity", "mse", "--exp-eps", "3"}};
  const std::pair<const char*, int> kinds[] = {{"filesystem", 2}, {"json", 2},  {"invalid", 2}, {"undecidable", 3},
                                               {"bad_alloc", 4},  {"runtime", 4}, {"other", 4}};
  for (const auto& args : entry_points)
    for (const auto& [kind, status] : kinds) {
      INFO(args[0] << " " << kind);
      const Outcome o = corbin(args, {std::string("CORBIN_TEST_THROW=") + kind});
      CHECK(o.status == status);
      CHECK(o.err_lines() == 1);
      CHECK(o.err.rfind("corbin: ", 0) == 0);
      CHECK(o.err.find("terminate") == std::string::npos);
    }
}

TEST_CASE("ε far below 1 is computed at the precision it needs, and printed as it is", "[cli][hostile]") {
  // α ≈ 2/ε: at ε = 10^-200 the pair's terms agree to 1/α², so the default d + 128 bits gave
  // "value is -inf" (exit 2) in sweep and check while gap --sup said exit 3.
  const Outcome s = corbin({"sweep", "--quantity", "sup_gap", "--eps", "1e-200,1e-5000", "--bits", "3"});
  INFO(s.err);
  REQUIRE(s.status == 0);
  // Every parameter the quantity read is a column (c and r at their defaults).
  CHECK(s.out == "eps,bits,center,radius,sup_gap,sup_gap_exact,sup_gap_lower,sup_gap_upper\n"
                 "1e-200,3,0,1,8e+200,,8e+200,8e+200\n1e-5000,3,0,1,8e+5000,,8e+5000,8e+5000\n");
  const Outcome m = corbin({"sweep", "--quantity", "mse", "--eps", "1e-200", "--bits", "3", "--w", "1/3", "--w2", "1/5"});
  REQUIRE(m.status == 0);
  CHECK(m.out.find("2.1333333333333333e+200") != std::string::npos);
  const Outcome g = corbin({"gap", "--sup", "--eps", "1e-5000", "--bits", "3"});
  INFO(g.out);
  REQUIRE(g.status == 0);
  CHECK(g.out.find("sup_gap          8e+5000\n") != std::string::npos);
  CHECK(g.out.find("null") == std::string::npos);  // a double twin out of range says nothing
  CHECK(g.out.find("eps              1e-5000\n") != std::string::npos);  // no twin that underflowed
  CHECK(g.out.find("center           0\n") != std::string::npos);  // nor one of an integer
  CHECK(g.out.find("(5009 characters; --json prints them)") != std::string::npos);
  CHECK(g.out.size() < 1000);
  const auto j = nlohmann::json::parse(corbin({"gap", "--sup", "--eps", "1e-5000", "--bits", "3", "--json"}).out);
  CHECK(j["sup_gap"] == "8e+5000");
  CHECK(j["budget"].get<std::string>().size() == 5009);
}

TEST_CASE("an option the quantity does not use is refused, and the noise follows the range", "[cli][hostile]") {
  // Was: accepted and ignored, so `--n 100` gave one client's law_mse, and `--radius 1/20` left
  // gaussian_sigma at sensitivity 2 (σ = 7.46 instead of 0.373: 400 times the variance).
  refused(corbin({"sweep", "--quantity", "law_mse", "--mechanism", "ldp", "--exp-eps", "3", "--n", "100"}),
          "--n is given, but must be absent for law_mse, which does not use it");
  refused(corbin({"sweep", "--quantity", "mse", "--exp-eps", "3", "--gamma", "1/4"}), "--gamma is given");
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "3", "--w", "1/2"}), "--w is given");
  refused(corbin({"sweep", "--quantity", "gaussian_sigma", "--eps", "1", "--radius", "1/20", "--sensitivity", "2"}),
          "--radius is given");
  refused(corbin({"sweep", "--quantity", "eps_u_printed", "--alpha", "2", "--sensitivity", "2"}), "--sensitivity");
  // A room's setting parameter that no room asked reads, by the rooms' own declaration
  // (Mechanism::reads). Was: --delta accepted for LDP-FL, which never reads δ.
  const std::vector<std::string> ldp = {"sweep", "--quantity", "aggregate_mse", "--mechanism", "ldp", "--exp-eps", "3"};
  const auto plus = [](std::vector<std::string> a, const std::vector<std::string>& more) {
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  refused(corbin(plus(ldp, {"--delta", "1e-3"})), "--delta is given, but must be absent for --mechanism ldp, which does not read it");
  refused(corbin(plus(ldp, {"--gamma", "1/4"})), "--gamma is given, but must be absent for --mechanism ldp");
  refused(corbin(plus(ldp, {"--bits", "3"})), "--bits is given, but must be absent for --mechanism ldp");
  refused(corbin({"sweep", "--quantity", "law_mse", "--mechanism", "ldp,pbm2", "--exp-eps", "3", "--delta", "1e-3"}),
          "--delta is given, but must be absent for --mechanism ldp,pbm2, which do not read it");
  // The Gaussian reads it (its σ's calibration), alone or beside a room that does not.
  for (const char* rooms : {"gaussian", "ldp,gaussian"}) {
    INFO(rooms);
    const Outcome g = corbin({"sweep", "--quantity", "aggregate_mse", "--mechanism", rooms, "--eps", "1", "--delta", "1e-3"});
    INFO(g.err);
    CHECK(g.status == 0);
  }
  const Outcome s = corbin({"sweep", "--quantity", "gaussian_sigma", "--eps", "1", "--radius", "1/20"});
  INFO(s.err);
  REQUIRE(s.status == 0);
  const Outcome c = corbin({"calibrate", "gaussian", "--eps", "1", "--sensitivity", "1/10", "--json"});
  REQUIRE(c.status == 0);
  const double sigma = nlohmann::json::parse(c.out)["sigma_approx"].get<double>();
  CHECK(sigma == Approx(0.3731).epsilon(1e-3));
  const std::string row = s.out.substr(s.out.find('\n') + 1);
  CHECK(std::stod(row.substr(row.rfind(',') + 1)) == Approx(sigma).epsilon(1e-12));
  // What a quantity does use stays accepted.
  CHECK(corbin({"sweep", "--quantity", "eps_u_printed", "--alpha", "2", "--n", "1800", "--gamma", "1", "--radius",
                "1/100"})
            .status == 0);
}

TEST_CASE("corbin account's neighbours default to replace, as its help says", "[cli][hostile]") {
  const std::vector<std::string> base = {"account", "--n", "5", "--gamma", "1", "--exp-eps", "2", "--delta", "0.05", "--json"};
  const Outcome plain = corbin(base);
  INFO(plain.err);
  REQUIRE(plain.status == 0);
  std::vector<std::string> replace = base;
  replace.insert(replace.end(), {"--neighbours", "replace"});
  const Outcome given = corbin(replace);
  REQUIRE(given.status == 0);
  CHECK(plain.out == given.out);
  CHECK(nlohmann::json::parse(plain.out)["neighbours"] == "replace");
  CHECK(corbin({"account", "--help"}).out.find("default replace") != std::string::npos);
}

TEST_CASE("log grids: k points from a to b, readable and exact as printed", "[cli][hostile]") {
  const Outcome s = corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "2:200:5:log", "--bits", "5"});
  INFO(s.err);
  REQUIRE(s.status == 0);
  std::vector<std::string> firsts;
  std::istringstream lines(s.out);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) firsts.push_back(line.substr(0, line.find(',')));
  // 2·10^(i/2): 2, 6.32456, 20, 63.2456, 200.
  CHECK(firsts == std::vector<std::string>{"2", "6.32456", "20", "63.2456", "200"});
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "0:2:5:log"}), "0 < a < b");
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "3:2:5:log"}), "0 < a < b");
  // A count below its least is refused by the rule it breaks (a log range needs both ends, a
  // range one point).
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "2:3:1:log"}), "an integer in [2, 1000000]");
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "2:3:0"}), "an integer in [1, 1000000]");
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "2:3:2000000"}), "an integer in [1, 1000000]");
  refused(corbin({"sweep", "--quantity", "sup_gap", "--exp-eps", "2:3:log"}), "a log range a:b:k:log");
}
