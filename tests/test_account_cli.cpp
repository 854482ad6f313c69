// `corbin account` end to end: the JSON contract, the bounds against the exact law's ε for one
// coordinate, --at-eps, and bad input (exit 2, one line naming the option).

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.hpp"

namespace {

using Json = nlohmann::json;
const std::string kCli = CORBIN_CLI_PATH;

Json run_json(std::vector<std::string> args) {
  args.insert(args.begin(), {kCli, "account"});
  args.push_back("--json");
  const Outcome o = run_process(args);
  INFO(o.err);
  REQUIRE(o.status == 0);
  return Json::parse(o.out);
}

}  // namespace

TEST_CASE("corbin account brackets the exact ε of corbin ucdp --exact", "[cli][unit]") {
  const Outcome exact =
      run_process({kCli, "ucdp", "--n", "12", "--gamma", "1/2", "--delta", "1e-3", "--exp-eps", "3",
                   "--exact", "--relation", "replace", "--json"});
  REQUIRE(exact.status == 0);
  const double eps = Json::parse(exact.out)["exact"]["replace"]["eps_approx"].get<double>();
  const Json j = run_json({"--n", "12", "--gamma", "1/2", "--exp-eps", "3", "--delta", "1e-3",
                           "--neighbours", "replace"});
  CHECK(j["eps_lower_approx"].get<double>() <= eps * (1 + 1e-12));
  CHECK(eps <= j["eps_upper_approx"].get<double>() * (1 + 1e-12));
  // The decimal strings are the outward-rounded twins.
  CHECK(std::stod(j["eps_lower"].get<std::string>()) <= j["eps_lower_approx"].get<double>());
  CHECK(std::stod(j["eps_upper"].get<std::string>()) >= j["eps_upper_approx"].get<double>());
  CHECK(j["compositions"] == "1");
  CHECK(j["ldpq_clients"] == 6);
}

TEST_CASE("corbin account composes m·T times, and --at-eps prints δ bounds", "[cli][unit]") {
  const Json e = run_json({"--n", "1000", "--gamma", "1/2", "--exp-eps", "3", "--m", "1000",
                           "--rounds", "10", "--delta", "1e-5", "--neighbours", "replace"});
  CHECK(e["compositions"] == "10000");
  const double lo = e["eps_lower_approx"], hi = e["eps_upper_approx"];
  CHECK(lo <= hi);
  // The worst case over every configuration of the others: the attained lower end and the upper
  // end dominating every choice per coordinate are within 3 % of each other at this k.
  CHECK(e["relative_width"].get<double>() <= 0.03);
  CHECK(e["worst_case"]["configurations"] ==
        1000);  // 2 candidates × 500 values of j (499 other LDPQ clients)
  CHECK(e["worst_case"]["lower_bound_attained_by"]["client_1"].get<std::string>().find("on LDPQ") !=
        std::string::npos);
  const Json d =
      run_json({"--n", "1000", "--gamma", "1/2", "--exp-eps", "3", "--m", "1000", "--rounds", "10",
                "--at-eps", e["eps_upper"].get<std::string>(), "--neighbours", "replace"});
  CHECK(d["delta_upper_approx"].get<double>() <= 1e-5);
  CHECK(d["delta_lower_approx"].get<double>() <= d["delta_upper_approx"].get<double>());
  const Json removed = run_json({"--n", "50", "--gamma", "1/2", "--exp-eps", "3", "--delta", "1e-5",
                                 "--neighbours", "remove"});
  CHECK(removed["eps_lower"] == "infinite");
  CHECK(removed["eps_upper_approx"].is_null());
}

TEST_CASE("corbin account rejects bad input with exit 2 and the option's name", "[cli][unit]") {
  const std::vector<std::string> base = {kCli,  "account",   "--n", "100",          "--gamma",
                                         "1/2", "--exp-eps", "3",   "--neighbours", "replace"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--delta", "0"}, "--delta"},
      {{"--delta", "1"}, "--delta"},
      {{"--delta", "1e-5", "--m", "0"}, "--m"},
      {{"--delta", "1e-5", "--rounds", "0"}, "--rounds"},
      {{"--at-eps", "-1"}, "--at-eps"},
      {{"--at-eps", "0"}, "--at-eps"},
      {{"--delta", "1e-5", "--m", "1000000000", "--rounds", "10000"}, "--rounds"},
      {{"--delta", "1e-5", "--gamma", "2"}, "--gamma"},
      {{"--delta", "1e-5", "--n", "1000000000"}, "--n"}};
  for (const auto& [extra, option] : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = run_process(args);
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err_lines() == 1);
    CHECK(o.err.find(option) != std::string::npos);
  }
  const Outcome bad = run_process({kCli, "account", "--n", "100", "--gamma", "1/2", "--exp-eps",
                                   "3", "--delta", "1e-5", "--neighbours", "swap"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--neighbours") != std::string::npos);
}
