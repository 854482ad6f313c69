// Every documented input range bounds the work it allows (issue 36): what ran for minutes is
// either refused (exit 2, one line naming the option and the limit the code accepts) or answered.
// The tests check the refusals and the answers, never the time; docs/benchmarks.md has timings.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "process.hpp"

namespace {

using Json = nlohmann::json;
const std::string kCli = CORBIN_CLI_PATH;

/// `corbin ARGS...`: exit 2 and one line on stderr holding each of `words`.
void refused(const std::vector<std::string>& args, const std::vector<std::string>& words) {
  std::vector<std::string> argv{kCli};
  argv.insert(argv.end(), args.begin(), args.end());
  const Outcome o = run_process(argv);
  INFO(args.front() << " " << args.at(1) << ": " << o.err);
  CHECK(o.status == 2);
  CHECK(o.err_lines() == 1);
  for (const std::string& w : words) CHECK(o.err.find(w) != std::string::npos);
}

Json answered(std::vector<std::string> args) {
  args.insert(args.begin(), kCli);
  args.push_back("--json");
  const Outcome o = run_process(args);
  INFO(o.err);
  REQUIRE(o.status == 0);
  return Json::parse(o.out);
}

const std::vector<std::string> kAccount = {"account", "--n", "100", "--gamma", "1", "--delta", "1e-5"};

std::vector<std::string> account(std::vector<std::string> extra) {
  std::vector<std::string> args = kAccount;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

TEST_CASE("an ε whose α would take more than 10^4·1.44 bits is refused where α is used", "[cli][unit]") {
  // --eps 10^8 (the documented maximum) ran past a minute in every command: α − 1 ≈ 2e^−ε took
  // 1.44ε bits of working precision.
  for (const std::vector<std::string>& cmd :
       {std::vector<std::string>{"pldp"}, {"joint"}, {"mse"}, {"gap", "--sup"},
        {"sweep", "--quantity", "pldp_ratio"}})
    for (const char* eps : {"1e5", "1e8"}) {
      std::vector<std::string> args = cmd;
      args.insert(args.end(), {"--eps", eps});
      refused(args, {"--eps", "at most 10^4"});
    }
  // At the limit the answer comes (a pair of LDPQ at ε = 10^4 sends c ± rα, α just above 1).
  const Json at = answered({"joint", "--eps", "1e4"});
  CHECK(at["mse_ldp"].is_string());
  // ε itself stays usable to 10^8 where no α is made: the Laplace room's noise.
  const Outcome laplace = run_process({kCli, "sweep", "--quantity", "aggregate_mse", "--mechanism", "laplace",
                                       "--eps", "1e8", "--n", "10"});
  INFO(laplace.err);
  CHECK(laplace.status == 0);
  CHECK(laplace.out.find("laplace,100000000,10,") != std::string::npos);
  CHECK(laplace.out.find(",8e-17,") != std::string::npos);
}

TEST_CASE("corbin account refuses a budget its windows cannot hold, naming it and the limit", "[cli][unit]") {
  // --eps 1000 ended "undecided" (exit 3, --precision did not help); --eps 10^7 took 30 s first.
  refused(account({"--eps", "1000"}), {"--eps", "at most 642"});
  refused(account({"--eps", "1e7"}), {"--eps", "at most 642"});
  refused(account({"--exp-eps", "1e280"}), {"--exp-eps", "at most 10^279"});
  refused(account({"--alpha", "1." + std::string(299, '0') + "1"}), {"--alpha", "10^279"});  // e^ε ≈ 2·10^300
  // The largest taken gives a finite bracket, at most the budget for one use.
  const Json at = answered(account({"--eps", "642"}));
  CHECK(at["eps_upper_approx"].get<double>() <= 642 * (1 + 1e-9));
  CHECK(at["eps_lower_approx"].get<double>() > 0);
}

TEST_CASE("corbin account prints the ranges it accepts", "[cli][unit]") {
  // --rounds 0 was refused as "at least 1" after "[0, 2^40]" had been printed.
  refused(account({"--exp-eps", "3", "--rounds", "0"}), {"--rounds", "[1, 1099511627776]"});
  refused(account({"--exp-eps", "3", "--rounds", "2e12"}), {"--rounds", "[1, 1099511627776]"});
  refused(account({"--exp-eps", "3", "--m", "0"}), {"--m", "[1, 1099511627776]"});
  refused({"account", "--n", "1", "--gamma", "1", "--exp-eps", "3", "--delta", "1e-5"}, {"--n", "[2, 1000000]"});
  // 10^8 clients, the documented maximum before, ran for minutes.
  refused({"account", "--n", "1e8", "--gamma", "1", "--exp-eps", "3", "--delta", "1e-5"}, {"--n", "[2, 1000000]"});
  refused({"account", "--n", "100", "--mechanism", "ldp", "--exp-eps", "3", "--delta", "1e-5", "--rounds", "0"},
          {"--rounds", "[1, 1099511627776]"});
  // --help says the same ranges.
  const Outcome help = run_process({kCli, "account", "--help"});
  for (const char* range : {"clients n in [2, 10^6]", "rounds T in [1, 2^40]", "coordinates m in [1, 2^40]",
                            "ε in (0, 642]", "rational in (1, 10^279]", "d in [0, 2^15]", "in [32, 2^16]"})
    CHECK(help.out.find(range) != std::string::npos);
}

TEST_CASE("corbin account --target-eps says when no budget up to the search's cap reaches it", "[cli][unit]") {
  // One round gives at most ε_p: a target of 1000 was answered with the cap, 64, as "largest".
  refused(account({"--target-eps", "1000"}), {"--target-eps", "cap", "64"});
  // An ordinary target: the largest ε_p, its ε_upper at most the target, and the budget printed
  // as the one found (it printed the search's stand-in, e^ε = 3).
  const Json t = answered({"account", "--n", "100", "--gamma", "1", "--rounds", "100", "--delta", "1e-5",
                           "--target-eps", "8"});
  CHECK(t["eps_upper_approx"].get<double>() <= 8);
  CHECK(t["budget"] == "--eps " + t["largest_eps_p"].get<std::string>());
}

TEST_CASE("the working precision and d are bounded where everything is certified", "[cli][unit]") {
  // --precision 10^5 and --bits 10^5 ran past a minute (corbin account: one log-gamma per binomial
  // window at d + 128 bits).
  refused({"pldp", "--eps", "1", "--precision", "1e5"}, {"--precision", "[32, 65536]"});
  refused({"pldp", "--eps", "1", "--precision", "16"}, {"--precision", "[32, 65536]"});
  refused({"pldp", "--exp-eps", "3", "--bits", "1e5"}, {"--bits", "32768"});
  refused(account({"--exp-eps", "3", "--bits", "1e5"}), {"--bits", "32768"});
  // At the limits the answers come, and corbin account's do not depend on d at γ = 1 (no pairs).
  const Json five = answered(account({"--exp-eps", "3"}));
  const Json wide = answered(account({"--exp-eps", "3", "--bits", "32768"}));
  CHECK(wide["eps_upper"] == five["eps_upper"]);
  CHECK(wide["eps_lower"] == five["eps_lower"]);
  const Json fine = answered(account({"--eps", "1", "--precision", "65536"}));
  CHECK(fine["eps_upper_approx"].get<double>() > 0);
}

TEST_CASE("a dropout probability of 10^-100000 is a probability, quickly", "[cli][unit]") {
  // Its floors' working precision was 332 000 bits, with a log-gamma at it per binomial window.
  std::string tiny = "1e-100000";
  const Json j = answered(account({"--exp-eps", "3", "--dropout", tiny}));
  const Json none = answered(account({"--exp-eps", "3"}));
  // As good as no dropout, up to the δ the floors' failure takes (δ/2 for the mechanism).
  CHECK(j["eps_upper_approx"].get<double>() >= none["eps_upper_approx"].get<double>());
  CHECK(j["eps_upper_approx"].get<double>() <= 1.1 * none["eps_upper_approx"].get<double>());
  CHECK(j["eps_lower_approx"].get<double>() > 0);
  // Under remove one at c = 0 the parity of the sum all but tells whether client 1 is there (every
  // other client survives but with probability about n·10^-100000): the lower end reaches the
  // largest e^ε a double holds, e^709.78. It was 106.7, from a coarse enclosure of client 1's
  // dropping (1 − P(survive), as wide as the working precision), and 0 with an exact one: a
  // likelihood ratio past the doubles was converted to an integer cell (undefined) and dropped.
  for (const char* n : {"1024", "1025"}) {  // client by client, and the survivors' sum by steps
    const Json r = answered({"account", "--n", n, "--gamma", "1", "--delta", "1e-5", "--exp-eps", "3", "--neighbours",
                             "remove", "--dropout", tiny});
    CHECK(r["eps_lower_approx"].get<double>() >= 709);
    CHECK(r["eps_lower_approx"].get<double>() <= 709.79);
  }
}

TEST_CASE("a corbin check entry's precision is bounded as --precision is", "[cli][unit]") {
  // An entry at precision 2^24 took 25 s, and a spec may hold 10 000 of them.
  const auto dir = std::filesystem::temp_directory_path() / ("corbin_bounds_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto spec = dir / "deep.toml";
  std::ofstream(spec) << "[[bound]]\nname = \"deep\"\nquantity = \"pldp_ratio\"\nparams = { eps = \"1\" }\n"
                         "relation = \"<=\"\nvalue = \"3\"\nprecision = \"16777216\"\n";
  refused({"check", spec.string()}, {"precision", "2^16"});
  refused({"check", spec.string(), "--precision", "16777216"}, {"--precision", "[32, 65536]"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("the exact UCDP law bounds d, and Theorem 4's exact sums the size of p", "[cli][unit]") {
  // Client 1 paired at d = 2^15 took 13 s at n = 100, minutes at n = 5000: a pair's d-bit
  // probabilities are in every product of the exact law.
  refused({"ucdp", "--exp-eps", "3", "--n", "100", "--gamma", "1/2", "--delta", "1e-5", "--exact", "--role", "paired",
           "--bits", "257"},
          {"--bits", "at most 256"});
  const Json at = answered({"ucdp", "--exp-eps", "3", "--n", "100", "--gamma", "1/2", "--delta", "1e-5", "--exact",
                            "--role", "paired", "--bits", "256"});
  CHECK(at["exact"]["bits"] == 256);
  // p = 10^-100000 made each exact binomial term tens of millions of bits (75 s at n = 100): past
  // 4 000 trials of a 128-bit p the probabilities are certified enclosures instead.
  const Json tiny = answered({"dropout", "--exp-eps", "3", "--n", "100", "--p", "1e-100000", "--delta", "1e-5",
                              "--delta1", "1e-7"});
  CHECK(tiny["exact"].contains("singles_outside_interval"));  // an enclosure
  CHECK(tiny["exact"]["singles_outside_approx"].get<double>() < 1e-40);
  CHECK(tiny["exact"]["singles_bound_holds"] == true);
  const Json plain = answered({"dropout", "--exp-eps", "3", "--n", "100", "--p", "1/10", "--delta", "1e-5",
                               "--delta1", "1e-7"});
  CHECK(!plain["exact"].contains("singles_outside_interval"));  // exact, as before
  CHECK(plain["exact"]["singles_outside"] == "0");
}
