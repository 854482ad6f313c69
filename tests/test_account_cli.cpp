// `corbin account` end to end: the JSON contract, the bounds against the exact law's ε for one
// coordinate, --at-eps, and bad input (exit 2, one line naming the option).

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

using Cases = std::vector<std::pair<std::vector<std::string>, std::string>>;

/// Each case's options after `base`: exit 2, one line naming the option.
void refuses(const std::vector<std::string>& base, const Cases& cases) {
  for (const auto& [extra, option] : cases) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = run_process(args);
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.err_lines() == 1);
    CHECK(o.err.find(option) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("corbin account brackets the exact ε of corbin ucdp --exact", "[cli][unit]") {
  const Outcome exact =
      run_process({kCli, "ucdp", "--n", "12", "--gamma", "1/2", "--delta", "1e-3", "--exp-eps", "3",
                   "--exact", "--neighbours", "replace", "--json"});
  REQUIRE(exact.status == 0);
  const double eps = Json::parse(exact.out)["exact"]["replace"]["eps_approx"].get<double>();
  const Json j = run_json({"--n", "12", "--gamma", "1/2", "--exp-eps", "3", "--delta", "1e-3",
                           "--neighbours", "replace", "--role", "ldpq"});
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
                           "--rounds", "10", "--delta", "1e-5", "--neighbours", "replace", "--role", "ldpq"});
  CHECK(e["compositions"] == "10000");
  const double lo = e["eps_lower_approx"], hi = e["eps_upper_approx"];
  CHECK(lo <= hi);
  // The worst case over every configuration of the others: the attained lower end and the upper
  // end dominating every choice per coordinate are within 3 % of each other at this k.
  CHECK(e["relative_width"].get<double>() <= 0.03);
  CHECK(e["worst_case"]["configurations"] ==
        1000);  // 2 candidates × 500 values of j (499 other LDPQ clients)
  CHECK(e["worst_case"]["lower_bound_attained_by"][0]["client_1"].get<std::string>().find("on LDPQ") !=
        std::string::npos);
  CHECK(e["worst_case"]["worst_role"] == "ldpq");
  const Json d =
      run_json({"--n", "1000", "--gamma", "1/2", "--exp-eps", "3", "--m", "1000", "--rounds", "10",
                "--at-eps", e["eps_upper"].get<std::string>(), "--neighbours", "replace", "--role", "ldpq"});
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
  const Cases cases = {
      {{"--delta", "0"}, "--delta"},
      {{"--delta", "1"}, "--delta"},
      {{"--delta", "1e-5", "--m", "0"}, "--m"},
      {{"--delta", "1e-5", "--rounds", "0"}, "--rounds"},
      {{"--at-eps", "-1"}, "--at-eps"},
      {{"--at-eps", "0"}, "--at-eps"},
      {{"--delta", "1e-5", "--m", "1000000000", "--rounds", "10000"}, "--rounds"},
      {{"--delta", "1e-5", "--gamma", "2"}, "--gamma"},
      {{"--delta", "1e-5", "--n", "1000000000"}, "--n"}};
  refuses(base, cases);
  const Outcome bad = run_process({kCli, "account", "--n", "100", "--gamma", "1/2", "--exp-eps",
                                   "3", "--delta", "1e-5", "--neighbours", "swap"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--neighbours") != std::string::npos);
}

TEST_CASE("corbin account takes client 1's role as drawn by default, or the worst role, and names it",
          "[cli][unit]") {
  // γ = 1/2: client 1 is alone with probability 1/2, else paired; a paired client under replace
  // one has no finite ε (its pair's joint law has an unbounded ratio), and drawn into a pair in
  // about half of 100 rounds it is exposed with probability far above δ: no finite ε either way.
  const Json drawn = run_json({"--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--rounds", "100",
                               "--delta", "1e-5"});
  CHECK(drawn["role"] == "drawn");
  CHECK(drawn["eps_upper"] == "infinite");
  CHECK(drawn["worst_case"]["covers"].get<std::string>().find("as the server draws it") != std::string::npos);
  const Json worst = run_json({"--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--rounds", "100",
                               "--delta", "1e-5", "--role", "worst"});
  CHECK(worst["role"] == "worst");
  CHECK(worst["eps_upper"] == "infinite");
  CHECK(worst["worst_case"]["worst_role"] == "paired");
  CHECK(worst["worst_case"]["lower_bound_attained_by"][0].contains("partner"));
  // One round at n = 5, γ = 1/2, e^ε = 2, d = 2 (3 of 5 clients alone): the drawn round's lower
  // bound mixes one configuration of each role with client 1 at the same inputs, each part saying
  // which draw it serves; the drawn bracket lies below the worst role's upper end.
  const std::vector<std::string> five = {"--n", "5", "--gamma", "1/2", "--exp-eps", "2", "--bits", "2", "--delta", "1/10"};
  const Json mixed = run_json(five);
  std::vector<std::string> any = five;
  any.insert(any.end(), {"--role", "worst"});
  const Json either = run_json(any);
  REQUIRE(mixed["worst_case"].contains("lower_bound_attained_by"));
  const Json& parts = mixed["worst_case"]["lower_bound_attained_by"];
  REQUIRE(parts.size() == 2);
  CHECK(parts[0]["when"] == "client 1 alone (probability 3/5)");
  CHECK(parts[1]["when"] == "client 1 paired (probability 2/5)");
  CHECK(mixed["worst_case"]["worst_role"] == "drawn");
  CHECK(mixed["eps_lower_approx"].get<double>() > 0);
  CHECK(mixed["eps_upper_approx"].get<double>() <= either["eps_upper_approx"].get<double>());
  // γ = 1: every client on LDPQ, so the worst role is that one and the bracket is LDPQ's.
  const Json all = run_json({"--n", "100", "--gamma", "1", "--exp-eps", "3", "--rounds", "100",
                             "--delta", "1e-5"});
  const Json ldpq = run_json({"--n", "100", "--gamma", "1", "--exp-eps", "3", "--rounds", "100",
                              "--delta", "1e-5", "--role", "ldpq"});
  CHECK(all["worst_case"]["worst_role"] == "ldpq");
  CHECK(all["eps_upper"] == ldpq["eps_upper"]);
  CHECK(all["eps_lower"] == ldpq["eps_lower"]);
  // The references are upper bounds of the same worst case, never below the certified one.
  CHECK(all["eps_upper_references"]["basic_approx"].get<double>() >= all["eps_upper_approx"].get<double>());
  CHECK(all["eps_upper_references"]["renyi_approx"].get<double>() >= all["eps_upper_approx"].get<double>());
}

TEST_CASE("corbin account composes phases: 100 AugCorBin-FL rounds, then 100 with dropout 1/10",
          "[cli][unit]") {
  const std::vector<std::string> first = {"--n", "100", "--gamma", "1/2", "--exp-eps", "3",
                                          "--rounds", "100", "--role", "ldpq", "--delta", "1e-5"};
  const Json one = run_json(first);
  std::vector<std::string> mixed = first;
  mixed.insert(mixed.end(), {"--phase", "rounds=100,dropout=1/10"});
  const Json both = run_json(mixed);
  CHECK(both["rounds"] == "200");
  CHECK(both["phases"].size() == 2);
  CHECK(both["phases"][1]["dropout"] == "1/10");
  // 100 clients on LDPQ leave client 1 more populations than one accountant each: the ladder's
  // mixture, with all of δ.
  CHECK(both["dropout"]["survivors_mixed_rounds"] == "100");
  CHECK_FALSE(both["dropout"].contains("delta_mechanism"));
  CHECK(both["dropout"]["rule"].get<std::string>().find("ladder") != std::string::npos);
  // More rounds cost privacy: both ends grow (the dropout rounds' lower bound is the mechanism as
  // run, every client dropping), and the bracket stays ordered.
  CHECK(both["eps_upper_approx"].get<double>() > one["eps_upper_approx"].get<double>());
  CHECK(both["eps_lower_approx"].get<double>() > one["eps_lower_approx"].get<double>());
  CHECK(both["eps_lower_approx"].get<double>() <= both["eps_upper_approx"].get<double>());
  CHECK(both["dropout"]["rule"].get<std::string>().find("as run") != std::string::npos);
  // Measured: [11.7448, 12.8347] (200 rounds without dropout: [12.3628, 12.4195]).
  CHECK(both["eps_lower_approx"].get<double>() == Approx(11.7447513398599).epsilon(1e-9));
  CHECK(both["eps_upper_approx"].get<double>() < 12.835);
}

TEST_CASE("corbin account --target-eps solves for the largest ε_p", "[cli][unit]") {
  const Json t = run_json({"--n", "100", "--gamma", "1", "--rounds", "100", "--delta", "1e-5",
                           "--target-eps", "8"});
  CHECK(t["eps_upper_approx"].get<double>() <= 8);
  const std::string refuted = t["refuted_eps_p"].get<std::string>();
  const Json above = run_json({"--n", "100", "--gamma", "1", "--rounds", "100", "--delta", "1e-5",
                               "--eps", refuted});
  CHECK(above["eps_upper_approx"].get<double>() > 8);
  const Json at = run_json({"--n", "100", "--gamma", "1", "--rounds", "100", "--delta", "1e-5",
                            "--eps", t["largest_eps_p"].get<std::string>()});
  CHECK(at["eps_upper"] == t["eps_upper"]);
}

TEST_CASE("corbin account refuses a bad phase or role with the option's name", "[cli][unit]") {
  const std::vector<std::string> base = {kCli, "account", "--n", "100", "--gamma", "1/2",
                                         "--exp-eps", "3", "--delta", "1e-5"};
  const Cases cases = {
      {{"--phase", "rounds"}, "--phase 1"},
      {{"--phase", "foo=1"}, "--phase 1"},
      {{"--phase", "delta=1/2"}, "--phase 1"},
      {{"--phase", "rounds=1,rounds=2"}, "--phase 1"},
      {{"--phase", "exp-eps=3,eps=1"}, "--phase 1"},
      {{"--phase", "rounds=2", "--phase", "dropout=1"}, "--phase 2 (--dropout)"},
      {{"--phase", "gamma=3"}, "--phase 1 (--gamma)"},
      // One pair of datasets for the whole run (a phase may not switch the relation).
      {{"--phase", "neighbours=remove,center=2"}, "--phase 1 (--neighbours)"},
      // A new mechanism's phase refuses what it names and its mechanism does not read.
      {{"--phase", "mechanism=ldp,gamma=1/2"}, "--phase 1 (--gamma)"},
      // An empty value is named as such (was "--dropout) is , but must be").
      {{"--phase", "dropout="}, "--phase 1 (--dropout) is empty, but"},
      {{"--role", "both"}, "--role"},
      {{"--dropout", "1"}, "--dropout"},
      {{"--dropout", "nan"}, "--dropout"},
      {{"--target-eps", "8"}, "--target-eps"}};
  refuses(base, cases);
  // Under --target-eps every round gets the ε_p it finds: a phase's own budget is refused.
  refuses({kCli, "account", "--n", "100", "--gamma", "1", "--delta", "1e-5", "--target-eps", "8"},
          {{{"--phase", "rounds=2,exp-eps=3"}, "--phase 1"}});
}

TEST_CASE("corbin account names every use of the configuration attaining its lower bound", "[cli][unit]") {
  // Two rounds for a client on LDPQ at n = 4, γ = 1/2, e^ε = 3: fixed configurations' uses add up
  // to the 2 compositions; an adaptive strategy's (choice_plan.hpp) name each configuration it may
  // play with the rounds it may play it in, each at most 2, together at least 2.
  for (const char* bits : {"1", "2", "3"}) {
    const Json j = run_json({"--n", "4", "--gamma", "1/2", "--exp-eps", "3", "--bits", bits, "--rounds", "2",
                             "--role", "ldpq", "--at-eps", "1"});
    std::uint64_t uses = 0;
    bool adaptive = false;
    for (const Json& part : j["worst_case"]["lower_bound_attained_by"]) {
      const std::uint64_t u = std::stoull(part["uses"].get<std::string>());
      CHECK(u <= 2);
      uses += u;
      adaptive = adaptive || part.contains("chosen");
    }
    if (adaptive)
      CHECK(uses >= 2);
    else
      CHECK(uses == 2);
  }
  // The worst role's lower bound is at least each role's own (its search covers both families at
  // the query): n = 5, γ = 1/2, e^ε = 2, d = 2, one round, at ε = 1/2.
  const std::vector<std::string> at = {"--n", "5", "--gamma", "1/2", "--exp-eps", "2", "--bits", "2", "--at-eps", "1/2"};
  std::vector<std::string> worst = at, paired = at;
  worst.insert(worst.end(), {"--role", "worst"});
  paired.insert(paired.end(), {"--role", "paired"});
  const double w = run_json(worst)["delta_lower_approx"].get<double>();
  const double p = run_json(paired)["delta_lower_approx"].get<double>();
  CHECK(w >= p);
}

TEST_CASE("corbin account --mechanism accounts another registered room", "[cli][unit]") {
  // The Gaussian: 10 rounds of 10 clients at σ calibrated to (ln 3, 1e-5) for one client: the sum's
  // 10 uses are exactly one client's single use, whose ε(1e-5) is ln 3.
  const Json g = run_json({"--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "10", "--exp-eps", "3",
                           "--rounds", "10", "--delta", "1e-5"});
  CHECK(g["mechanism"] == "gaussian");
  CHECK(g["eps_lower_approx"].get<double>() <= std::log(3.0));
  CHECK(g["eps_upper_approx"].get<double>() >= std::log(3.0));
  CHECK(g["eps_upper_approx"].get<double>() - g["eps_lower_approx"].get<double>() <= 1e-3);
  // LDP-FL's room is Theorem 3's mechanism at γ = 1 for a client on LDPQ: the same upper end, up to
  // the grids of the two families' searches over the adversary's choices (each certified), and
  // brackets that meet. Both lower ends are the search's adaptive strategy (4.2899529 here; the
  // room's was its best fixed configuration's, 4.284105, before its rounds were run as rounds).
  const Json ldp = run_json({"--mechanism", "ldp", "--n", "10", "--exp-eps", "3", "--rounds", "5", "--delta", "1e-5"});
  const Json t3 = run_json({"--n", "10", "--gamma", "1", "--role", "ldpq", "--exp-eps", "3", "--rounds", "5",
                            "--delta", "1e-5"});
  const double t3_upper = t3["eps_upper_approx"].get<double>(), t3_lower = t3["eps_lower_approx"].get<double>();
  CHECK(std::abs(ldp["eps_upper_approx"].get<double>() - t3_upper) <= 1e-5 * t3_upper);
  CHECK(std::abs(ldp["eps_lower_approx"].get<double>() - t3_lower) <= 1e-9 * t3_upper);
  CHECK(ldp["eps_lower_approx"].get<double>() <= t3_upper);
  CHECK(t3_lower <= ldp["eps_upper_approx"].get<double>());
  // Mixed runs compose: 5 rounds of LDP-FL, then 10 of the Gaussian, cost more than either alone.
  const Json mixed = run_json({"--mechanism", "ldp", "--n", "10", "--exp-eps", "3", "--rounds", "5", "--delta", "1e-5",
                               "--phase", "mechanism=gaussian,calibration-delta=1e-5,rounds=10"});
  CHECK(mixed["phases"].size() == 2);
  CHECK(mixed["phases"][1]["mechanism"] == "gaussian");
  CHECK(mixed["rounds"] == "15");
  CHECK(mixed["eps_lower_approx"].get<double>() >= ldp["eps_lower_approx"].get<double>());
  CHECK(mixed["eps_lower_approx"].get<double>() >= g["eps_lower_approx"].get<double>());
  CHECK(mixed["eps_upper_approx"].get<double>() > ldp["eps_upper_approx"].get<double>());
  CHECK(mixed["eps_lower_approx"].get<double>() <= mixed["eps_upper_approx"].get<double>());
}

TEST_CASE("corbin account --mechanism refuses what its room does not read, and a room without an accountant",
          "[cli][unit]") {
  const std::vector<std::string> base = {kCli, "account", "--n", "10", "--exp-eps", "3", "--delta", "1e-5"};
  const Cases cases = {
      {{"--mechanism", "pbm2"}, "--mechanism"},
      {{"--mechanism", "nope"}, "--mechanism"},
      {{"--mechanism", "gaussian"}, "--calibration-delta"},
      {{"--mechanism", "gaussian", "--calibration-delta", "1"}, "--calibration-delta"},
      {{"--mechanism", "pbm1", "--gamma", "1/2"}, "--gamma"},
      {{"--mechanism", "pbm1", "--dropout", "1"}, "--dropout"},
      {{"--mechanism", "rqm3", "--role", "ldpq"}, "--role"},
      {{"--mechanism", "laplace", "--neighbours", "remove", "--center", "10000000"}, "--mechanism"},
      {{"--mechanism", "gaussian", "--calibration-delta", "1e-5", "--neighbours", "remove", "--center", "10000000"},
       "--mechanism"},
      {{"--mechanism", "rqm3", "--bits", "3"}, "--bits"},
      {{"--mechanism", "ldp", "--calibration-delta", "1e-5"}, "--calibration-delta"},
      {{"--gamma", "1", "--calibration-delta", "1e-5"}, "--calibration-delta"},
      {{"--mechanism", "corbin", "--gamma", "1/2"}, "--gamma"},
      {{"--mechanism", "ldp", "--target-eps", "8"}, "--target-eps"}};
  refuses(base, cases);
  // CQ (no budget) has no mixture over who survived: the dropout is what is refused.
  refuses({kCli, "account", "--n", "10", "--delta", "1e-5", "--mechanism", "cq"},
          {{{"--dropout", "1/10"}, "--dropout"}, {{"--sampling-rate", "1/2"}, "--sampling-rate"}});
}

TEST_CASE("corbin account --mechanism ldp --neighbours remove is Theorem 3's remove one at γ = 1", "[cli][unit]") {
  // Two builders of one mechanism (the lone clients' family, Theorem 3's): at c = 2 the sums of n
  // and n − 1 outputs (c ± 2 each) share their values.
  const std::vector<std::string> run = {"--n", "60", "--exp-eps", "3", "--rounds", "3", "--delta", "1e-5",
                                        "--neighbours", "remove", "--center", "2"};
  std::vector<std::string> room = run, theorem3 = run;
  room.insert(room.end(), {"--mechanism", "ldp"});
  theorem3.insert(theorem3.end(), {"--gamma", "1"});
  const Json a = run_json(room), b = run_json(theorem3);
  CHECK(a["neighbours"] == "remove");
  for (const char* end : {"eps_lower_approx", "eps_upper_approx"})
    CHECK(std::abs(a[end].get<double>() - b[end].get<double>()) <= 1e-9 * b[end].get<double>());
  CHECK(a["eps_upper_approx"].get<double>() < 2.09);
  CHECK(a["eps_lower_approx"].get<double>() > 2.08);
  // Another lone room accepts it too; the replace-one answer is another.
  std::vector<std::string> rqm = {"--n", "10", "--exp-eps", "3", "--delta", "1/10", "--mechanism", "rqm3"};
  const Json replaced = run_json(rqm);
  rqm.insert(rqm.end(), {"--neighbours", "remove"});
  const Json removed = run_json(rqm);
  CHECK(removed["neighbours"] == "remove");
  CHECK(replaced["neighbours"] == "replace");
  CHECK(removed["eps_upper"] != replaced["eps_upper"]);
}

TEST_CASE("a room's dropout round shares the draw over its m coordinates", "[cli][unit]") {
  // Who drops out drops out of every coordinate. Composing one coordinate's mixture m times drew
  // anew per coordinate: 2.7467 for LDP-FL below the 3.1973 Theorem 3's path attains with the
  // same clients (γ = 1), and 1.6296 for the Laplace's below the 2.4276 its round as run gives.
  const std::vector<std::string> run = {"--n", "3", "--m", "3", "--exp-eps", "3", "--dropout", "1/2", "--delta",
                                        "1/100"};
  std::vector<std::string> room = run, theorem3 = run;
  room.insert(room.end(), {"--mechanism", "ldp"});
  theorem3.insert(theorem3.end(), {"--gamma", "1"});
  const Json a = run_json(room), b = run_json(theorem3);
  const double attained = b["eps_lower_approx"].get<double>();
  CHECK(attained > 3.197);
  CHECK(a["eps_upper_approx"].get<double>() >= attained);
  CHECK(std::abs(a["eps_upper_approx"].get<double>() - b["eps_upper_approx"].get<double>()) <=
        1e-9 * b["eps_upper_approx"].get<double>());
  // The room's lower end is the whole round as run too (the draw seen, the inputs fixed before
  // it): Theorem 3's attained value, said.
  CHECK(std::abs(a["eps_lower_approx"].get<double>() - attained) <= 1e-9 * attained);
  CHECK(a.dump().find("the round's 3 coordinates sharing the draw") != std::string::npos);
  // Under remove one (the sum alone) the whole round is seen through the sum of its coordinates,
  // every input the same in each, and that is the better lower end here; one coordinate's (the
  // rest dropped) is computed beside it.
  const Json removed = run_json({"--mechanism", "ldp", "--n", "4", "--m", "3", "--exp-eps", "3", "--dropout", "1/2",
                                 "--delta", "1/10", "--neighbours", "remove", "--center", "2"});
  CHECK(removed["worst_case"]["lower_bound_attained_by"].dump().find("seen through the sum of") != std::string::npos);
  CHECK(removed["worst_case"]["lower_bound_attained_by"].dump().find("one coordinate of the round's 3") ==
        std::string::npos);
  const Json one_coordinate = run_json({"--mechanism", "ldp", "--n", "4", "--m", "1", "--exp-eps", "3", "--dropout",
                                        "1/2", "--delta", "1/10", "--neighbours", "remove", "--center", "2"});
  CHECK(one_coordinate["eps_lower_approx"].get<double>() > 0.4721);  // exact at m = 1: the family's
  CHECK(removed["eps_lower_approx"].get<double>() > 1.3088);          // 0.4722 one coordinate's
  // Laplace: given who survived the coordinates are independent shifts, so both ends are the
  // round as run.
  const Json laplace = run_json({"--mechanism", "laplace", "--n", "3", "--m", "3", "--eps", "1", "--dropout", "1/2",
                                 "--delta", "1/100"});
  CHECK(laplace["eps_lower_approx"].get<double>() > 2.4275);
  CHECK(laplace["eps_upper_approx"].get<double>() < 2.4276);
}

TEST_CASE("under remove one a lone room's dropout round of one coordinate is exact", "[cli][unit]") {
  // The server sees the sum alone: each client's law with its dropout folded in is the family's,
  // so both ends meet (the labelled mixture's upper end was infinite: the draw shows client 1).
  const Json one = run_json({"--mechanism", "ldp", "--n", "6", "--exp-eps", "3", "--dropout", "1/2", "--delta",
                             "1/100", "--neighbours", "remove"});
  CHECK(std::abs(one["eps_upper_approx"].get<double>() - 0.7085403899) < 1e-9);
  CHECK(std::abs(one["eps_lower_approx"].get<double>() - 0.7085403899) < 1e-9);
  // Poisson sampling over 100 rounds: the bracket under 2 % wide.
  const Json sampled = run_json({"--mechanism", "ldp", "--n", "50", "--exp-eps", "3", "--sampling-rate", "1/10",
                                 "--rounds", "100", "--delta", "1e-5", "--neighbours", "remove"});
  REQUIRE(sampled["eps_upper"] != "infinite");
  CHECK(sampled["eps_lower_approx"].get<double>() > 1.26);
  CHECK(sampled["eps_upper_approx"].get<double>() < 1.29);
  // m = 2: the coordinates share the draw, which the folded laws do not hold: the labelled one.
  const Json two = run_json({"--mechanism", "ldp", "--n", "6", "--m", "2", "--exp-eps", "3", "--dropout", "1/2",
                             "--delta", "1/100", "--neighbours", "remove"});
  CHECK(two["eps_upper"] == "infinite");
}

TEST_CASE("corbin account --mechanism gaussian --neighbours remove: the pair of n and n - 1 noises", "[cli][unit]") {
  // Without dropout both ends are the one pair's PLDs (gaussian_pld.hpp), client 1 at the extreme
  // farther from 0: a centre of 2 (|c + r| = 3) is less private than a centre of 0 (1).
  const std::vector<std::string> base = {"--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "10",
                                         "--eps", "1", "--rounds", "10", "--delta", "1e-5", "--neighbours", "remove"};
  const Json at0 = run_json(base);
  std::vector<std::string> shifted = base;
  shifted.insert(shifted.end(), {"--center", "2"});
  const Json at2 = run_json(shifted);
  CHECK(at0["eps_lower_approx"].get<double>() <= at0["eps_upper_approx"].get<double>());
  CHECK(at0["relative_width"].get<double>() < 0.01);
  CHECK(at0["eps_upper_approx"].get<double>() < at2["eps_lower_approx"].get<double>());
  const Json& by = at0["worst_case"]["lower_bound_attained_by"][0];
  CHECK(by["client_1"] == "client 1 at c + r");
  CHECK(by["neighbour"] == "client 1 removed");
  // With dropout: the sole survivor's disjoint pair puts (1 − p)·p^(n − 1) at ∞ above; the
  // lower end is the sum alone, through bins, finite and below the upper end.
  const Json few = run_json({"--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "3", "--eps", "1",
                             "--dropout", "1/2", "--delta", "1/100", "--neighbours", "remove"});
  CHECK(few["eps_upper"] == "infinite");
  CHECK(few["eps_lower_approx"].get<double>() > 0.5);
  const Json many = run_json({"--mechanism", "gaussian", "--calibration-delta", "1e-5", "--n", "8", "--eps", "1",
                              "--dropout", "1/10", "--delta", "1e-5", "--neighbours", "remove"});
  REQUIRE(many["eps_upper"] != "infinite");
  CHECK(many["eps_lower_approx"].get<double>() > 0.5 * many["eps_upper_approx"].get<double>());
  CHECK(many["eps_lower_approx"].get<double>() <= many["eps_upper_approx"].get<double>());
}

TEST_CASE("corbin account says why ε is infinite and gives the LDPQ role's beside it", "[cli][unit]") {
  // The run: 500 rounds at n = 100, γ = 1/2. A paired client's pair has an unbounded
  // likelihood ratio under replace-one (S1), so no finite ε; a client on LDPQ every round has one.
  const std::vector<std::string> run = {"--n", "100", "--gamma", "1/2", "--exp-eps", "3", "--rounds", "500",
                                        "--delta", "1e-5"};
  const Json worst = run_json(run);
  REQUIRE(worst["eps_upper"] == "infinite");
  const std::string why = worst["infinite_because"].get<std::string>();
  CHECK(why.find("client 1 as a pair's member") != std::string::npos);
  CHECK(why.find("replace-one") != std::string::npos);
  CHECK(why.find("S1") != std::string::npos);
  std::vector<std::string> as_ldpq = run;
  as_ldpq.insert(as_ldpq.end(), {"--role", "ldpq"});
  const Json ldpq = run_json(as_ldpq);
  REQUIRE(ldpq["eps_upper"] != "infinite");
  CHECK(worst["ldpq_role"]["eps_upper"] == ldpq["eps_upper"]);
  CHECK(worst["ldpq_role"]["eps_lower"] == ldpq["eps_lower"]);
  CHECK(ldpq["eps_upper_approx"].get<double>() > 0);
  CHECK_FALSE(ldpq.contains("infinite_because"));  // a finite answer needs no reason
  // The text output says it where the ∞ is printed.
  std::vector<std::string> text = {kCli, "account"};
  text.insert(text.end(), run.begin(), run.end());
  const Outcome shown = run_process(text);
  CHECK(shown.status == 0);
  CHECK(shown.out.find("infinite_because") != std::string::npos);
  CHECK(shown.out.find("ldpq_role") != std::string::npos);
  // CorBin-FL (γ = 0) at even n has no LDPQ position: the reason, and no LDPQ role to show.
  const Json corbin = run_json({"--mechanism", "corbin", "--n", "100", "--exp-eps", "3", "--delta", "1e-5"});
  REQUIRE(corbin["eps_upper"] == "infinite");
  CHECK(corbin["infinite_because"].get<std::string>().find("S1") != std::string::npos);
  CHECK(corbin["ldpq_role"].is_null());
  // Remove-one on centre: the sums of n and n − 1 clients never meet, whatever the role.
  const Json removed = run_json({"--n", "50", "--gamma", "1/2", "--exp-eps", "3", "--delta", "1e-5", "--neighbours",
                                 "remove", "--role", "ldpq"});
  REQUIRE(removed["eps_upper"] == "infinite");
  CHECK(removed["infinite_because"].get<std::string>().find("remove-one") != std::string::npos);
  CHECK(removed["infinite_because"].get<std::string>().find("dropout") == std::string::npos);
  // With dropout the lower end (the mixture over who drops, the sum alone seen) is finite, and the
  // reason names what is infinite: the sums with and without client 1 given the public draw.
  const Json dropped = run_json({"--n", "6", "--gamma", "1", "--exp-eps", "2", "--delta", "1/10", "--neighbours",
                                 "remove", "--dropout", "1/10"});
  REQUIRE(dropped["eps_upper"] == "infinite");
  CHECK(dropped["eps_lower_approx"].get<double>() > 0.5);
  const std::string drawn_why = dropped["infinite_because"].get<std::string>();
  CHECK(drawn_why.find("no finite ε is certified") == 0);
  CHECK(drawn_why.find("knows the public draw") != std::string::npos);
}

TEST_CASE("corbin account: a phase's budget replaces the one before it, in any form", "[cli][unit]") {
  // Was: "--phase 1 (--alpha) is empty", the phase's exp-eps refused because --alpha was given.
  const Json mixed = run_json({"--n", "100", "--gamma", "1", "--alpha", "2", "--delta", "1e-5", "--phase",
                               "rounds=1,exp-eps=3"});
  REQUIRE(mixed["phases"].size() == 2);
  CHECK(mixed["phases"][0]["budget"] == "--alpha 2");
  CHECK(mixed["phases"][1]["budget"] == "--exp-eps 3");
  // α = 2 is e^ε = 3: two rounds of one mechanism, bracketed as two rounds at once are (the two
  // brackets of one value overlap).
  const Json same = run_json({"--n", "100", "--gamma", "1", "--exp-eps", "3", "--rounds", "2", "--delta", "1e-5"});
  CHECK(mixed["eps_lower_approx"].get<double>() <= same["eps_upper_approx"].get<double>());
  CHECK(same["eps_lower_approx"].get<double>() <= mixed["eps_upper_approx"].get<double>());
  refuses({kCli, "account", "--n", "100", "--gamma", "1", "--alpha", "2", "--delta", "1e-5"},
          {{{"--phase", "rounds=1,exp-eps="}, "--phase 1 is 'exp-eps=', but must be a budget with its value"}});
}

TEST_CASE("corbin account --laws accounts a pair of laws of the user's own", "[cli][unit]") {
  // One use of p = (1/4, 3/4) against q = (3/4, 1/4): δ(ε) = 3/4 − e^ε/4 for e^ε <= 3, so
  // ε(1/10) = ln(13/5) exactly.
  const Json one = run_json({"--laws", "1/4,3/4:3/4,1/4", "--delta", "1/10"});
  CHECK(one["mechanism"] == "laws");
  CHECK(one["laws"] == "1/4,3/4:3/4,1/4");
  CHECK(!one.contains("n"));
  CHECK(!one.contains("neighbours"));  // the user's pair of datasets
  CHECK(!one["worst_case"].contains("configurations"));
  CHECK(one["compositions"] == "1");
  CHECK(one["cells"] == 8192);  // a pair's default grid (Accountant::kLawsCells); --cells still rules
  CHECK(run_json({"--laws", "1/4,3/4:3/4,1/4", "--delta", "1/10", "--cells", "2048"})["cells"] == 2048);
  CHECK(run_json({"--n", "5", "--gamma", "1", "--exp-eps", "3", "--delta", "1/10"})["cells"] == 2048);
  const double exact = std::log(13.0 / 5);
  CHECK(one["eps_lower_approx"].get<double>() <= exact);
  CHECK(one["eps_upper_approx"].get<double>() >= exact);
  // One use is answered exactly besides the grid (Accountant::exact_answer): both ends round ln(13/5).
  CHECK(one["eps_upper_approx"].get<double>() - one["eps_lower_approx"].get<double>() <= 1e-15);
  const Json at_one = run_json({"--laws", "1/4,3/4:3/4,1/4", "--at-eps", "1"});
  CHECK(at_one["delta_lower_approx"].get<double>() <= (3 - std::exp(1.0)) / 4 + 1e-16);
  CHECK(at_one["delta_upper_approx"].get<double>() >= (3 - std::exp(1.0)) / 4 - 1e-16);
  CHECK(at_one["delta_upper_approx"].get<double>() - at_one["delta_lower_approx"].get<double>() <= 1e-15);
  // Three uses (--rounds composes): δ(1) = Σ_j (P_j − e Q_j)₊ over the count j of the second
  // output = (27 − e)/64 + (27 − 9e)/64.
  const Json three = run_json({"--laws", "1/4,3/4:3/4,1/4", "--rounds", "3", "--at-eps", "1"});
  const double delta = (54 - 10 * std::exp(1.0)) / 64;
  CHECK(three["compositions"] == "3");
  CHECK(three["delta_lower_approx"].get<double>() <= delta);
  CHECK(three["delta_upper_approx"].get<double>() >= delta);
  CHECK(three["delta_upper_approx"].get<double>() - three["delta_lower_approx"].get<double>() <= 1e-6 * delta);
  // The laws are the mechanism: every option of another is refused by name, and so are laws that
  // are none.
  const std::vector<std::string> base = {kCli, "account", "--laws", "1/4,3/4:3/4,1/4", "--delta", "1/10"};
  refuses(base, {{{"--n", "5"}, "--n"},
                 {{"--exp-eps", "3"}, "--alpha, --exp-eps or --eps"},
                 {{"--gamma", "1"}, "--gamma"},
                 {{"--m", "2"}, "--m"},
                 {{"--dropout", "1/2"}, "--dropout"},
                 {{"--mechanism", "ldp"}, "--mechanism"},
                 {{"--bits", "3"}, "--bits"},
                 {{"--phase", "rounds=2"}, "--phase"}});
  refuses({kCli, "account", "--delta", "1/10"}, {{{"--laws", "1/4,3/4"}, "--laws"},
                                                 {{"--laws", "1/4,3/4:3/4"}, "--laws (q)"},
                                                 {{"--laws", "1/2,1/4:3/4,1/4"}, "--laws (p)"},
                                                 {{"--laws", "1/4,x:3/4,1/4"}, "--laws (p[1])"},
                                                 {{"--laws", "5/4,-1/4:3/4,1/4"}, "--laws (p[1])"},
                                                 {{"--exp-eps", "3"}, "--n is missing"}});
}

TEST_CASE("corbin account: a dropout round of m coordinates is computed whole, its draw shared", "[cli][unit]") {
  // Every client on LDPQ, replace one: the exact ε of the round as run (the independent brute
  // force, proofs-check/reference/accountant_bruteforce.py) against corbin's bracket. Composing
  // one coordinate's mixture m times gave lower ends above these (0.4773 at e^ε = 2); one
  // coordinate's alone gave 0.815 at e^ε = 3; the mixture over who survived of each component
  // composed m times gives them to 1e-11.
  struct Case {
    const char *exp_eps, *m;
    double exact;
  };
  for (const Case& c : {Case{"2", "2", 0.46377307949509916}, Case{"3", "2", 1.4262416330110703}}) {
    const Json j = run_json({"--n", "3", "--gamma", "1", "--role", "ldpq", "--exp-eps", c.exp_eps, "--m", c.m,
                             "--dropout", "1/10", "--delta", "1/10"});
    INFO("e^ε = " << c.exp_eps);
    CHECK(j["eps_lower_approx"].get<double>() <= c.exact + 1e-12);
    CHECK(j["eps_lower_approx"].get<double>() >= c.exact - 1e-10);
    CHECK(j["eps_upper_approx"].get<double>() >= c.exact);
    const Json& by = j["worst_case"]["lower_bound_attained_by"];
    REQUIRE(by.size() == 1);
    CHECK(by[0]["dropout"].get<std::string>().find("once for the round's 2 coordinates") != std::string::npos);
  }
}

TEST_CASE("corbin account says which dropout rounds are the mixture over who survived", "[cli][unit]") {
  // Six clients at γ = 1/2, two shared bits: 14 populations, so the round is the mixture over its
  // survivors, pairs included: [0.097014, 0.116211], where the floors gave [0.097014, 0.691222].
  const Json mixed = run_json({"--n", "6", "--gamma", "1/2", "--exp-eps", "2", "--bits", "2", "--dropout", "1/10",
                               "--delta", "1/10"});
  CHECK(mixed["dropout"]["survivors_mixed_rounds"] == "1");
  CHECK_FALSE(mixed["dropout"].contains("delta_mechanism"));
  CHECK(mixed["dropout"]["rule"].get<std::string>().find("mixture over who survived") != std::string::npos);
  CHECK(mixed["eps_upper_approx"].get<double>() < 0.1163);
  CHECK(mixed["eps_lower_approx"].get<double>() > 0.0970);
  // Then 100 rounds of 100 clients (the ladder's mixture): no floors, no share of δ.
  const Json both = run_json({"--n", "6", "--gamma", "1/2", "--exp-eps", "2", "--bits", "2", "--dropout", "1/10",
                              "--delta", "1/10", "--phase", "rounds=100,n=100"});
  CHECK(both["dropout"]["survivors_mixed_rounds"] == "101");
  CHECK_FALSE(both["dropout"].contains("delta_mechanism"));
  // Under remove one too (the draw given to the server beside the sum, round.hpp): four clients on
  // LDPQ at c = α = 3, dropout 1/2, δ(ε = 1/2) in [0.067687, 0.193068], an independent brute force's
  // 0.0676873 (inputs fixed before the draw, the sum alone seen) and 0.1930674 (inputs chosen
  // knowing it); the floors gave 0.667 above, with a share of δ.
  const Json removed = run_json({"--n", "4", "--gamma", "1", "--exp-eps", "2", "--bits", "2", "--dropout", "1/2",
                                 "--at-eps", "1/2", "--neighbours", "remove", "--center", "3"});
  CHECK(removed["dropout"]["survivors_mixed_rounds"] == "1");
  CHECK_FALSE(removed["dropout"].contains("failure"));
  CHECK(removed["delta_upper_approx"].get<double>() >= 0.1930673956416);
  CHECK(removed["delta_upper_approx"].get<double>() < 0.1930674);
  CHECK(removed["delta_lower_approx"].get<double>() <= 0.0676873132815);
  CHECK(removed["delta_lower_approx"].get<double>() > 0.06768731);
}

TEST_CASE("corbin account: a phase that changes the mechanism keeps only what every mechanism reads",
          "[cli][unit]") {
  // Was: "--phase 1 (--gamma) is 1, but must be absent", the ldp phase refused for the γ of the
  // AugCorBin-FL rounds before it. Two rounds of LDPQ clients either way: their exact ε at n = 4,
  // e^ε = 2, δ = 1/10 is 0.3582286144162481 (every client on LDPQ, the adversary adapting in round
  // 2; an independent brute force's exact program).
  const double exact = 0.3582286144162481;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--n", "4", "--gamma", "1", "--exp-eps", "2", "--delta", "1/10", "--phase",
                                 "mechanism=ldp,rounds=1"},
        std::vector<std::string>{"--mechanism", "ldp", "--n", "4", "--exp-eps", "2", "--delta", "1/10", "--phase",
                                 "mechanism=augcorbin,gamma=1,rounds=1"}}) {
    INFO(args.front());
    const Json j = run_json(args);
    CHECK(j["rounds"] == "2");
    CHECK(j["eps_lower_approx"].get<double>() <= exact);
    CHECK(j["eps_upper_approx"].get<double>() >= exact);
    // One program over the two phases' menus (was [0.33870, 0.39234], the composed pairs).
    CHECK(j["eps_upper_approx"].get<double>() - j["eps_lower_approx"].get<double>() < 1e-4 * exact);
  }
  // The dropout of the rounds before is theirs: the LDP-FL phase runs without it.
  const Json j = run_json({"--n", "4", "--gamma", "1", "--dropout", "1/10", "--exp-eps", "2", "--delta", "1/10",
                           "--phase", "mechanism=ldp,rounds=1"});
  CHECK(j["phases"].size() == 2);
  CHECK(j["phases"][0]["dropout"] == "1/10");
  CHECK(j["phases"][1]["dropout"] == "0");
  CHECK(j["eps_lower_approx"].get<double>() <= j["eps_upper_approx"].get<double>());
  // A lone room's dropout is its phase's, each round the mixture over who survived.
  const Json pbm = run_json({"--mechanism", "pbm1", "--n", "10", "--exp-eps", "3", "--dropout", "1/10", "--delta",
                             "1e-5", "--phase", "rounds=2,dropout=0"});
  REQUIRE(pbm["phases"].size() == 2);
  CHECK(pbm["phases"][0]["dropout"] == "1/10");
  CHECK(pbm["phases"][1]["dropout"] == "0");
  CHECK(pbm["dropout"]["survivors_mixed_rounds"] == "1");
  const Json plain = run_json({"--mechanism", "pbm1", "--n", "10", "--exp-eps", "3", "--rounds", "3", "--delta", "1e-5"});
  CHECK(pbm["eps_lower_approx"].get<double>() <= pbm["eps_upper_approx"].get<double>());
  CHECK(pbm["eps_upper_approx"].get<double>() != plain["eps_upper_approx"].get<double>());
}

TEST_CASE("corbin account: phases that differ are one program over their menus in turn", "[cli][unit]") {
  // Exact values from an independent brute force (its own laws, exact rationals, the adversary's
  // dynamic program over the rounds with each phase's configurations): the bracket holds them
  // within 10^-4, where the composed pairs of the phases were 3 % to 15 % wide.
  struct Case {
    std::vector<std::string> args;
    double exact;
    const char* key;
  };
  const std::vector<Case> cases{
      // AugCorBin-FL at γ = 1/2, two shared bits, n = 5: a round at e^ε = 2, then one at 3
      // (was [0.20810, 0.24215]).
      {{"--gamma", "1/2", "--bits", "2", "--n", "5", "--exp-eps", "2", "--phase", "exp-eps=3,rounds=1", "--at-eps",
        "1/2"},
       0.23527249464373495, "delta"},
      // RQM with three levels at e^ε = 3, then two LDP-FL rounds at 2, n = 3 (was [0.78267, 0.90493]).
      {{"--mechanism", "rqm3", "--n", "3", "--exp-eps", "3", "--phase", "mechanism=ldp,exp-eps=2,rounds=2", "--delta",
        "1/10"},
       0.8508863624825267, "eps"},
      // Remove one: LDP-FL then RQM at another center, n = 5, e^ε = 5/4 (was [1.69745, 1.73521]).
      {{"--mechanism", "ldp", "--n", "5", "--exp-eps", "5/4", "--center", "9", "--neighbours", "remove", "--phase",
        "mechanism=rqm3,center=17,rounds=1", "--delta", "1/10"},
       1.7230076137259402, "eps"},
  };
  for (const Case& c : cases) {
    INFO(c.args.front() << " " << c.args[1]);
    const Json j = run_json(c.args);
    const double lower = j[std::string(c.key) + "_lower_approx"].get<double>();
    const double upper = j[std::string(c.key) + "_upper_approx"].get<double>();
    INFO("[" << lower << ", " << upper << "] around " << c.exact);
    CHECK(lower <= c.exact * (1 + 1e-12));
    CHECK(upper >= c.exact * (1 - 1e-12));
    CHECK(upper - lower < 1e-4 * c.exact);
  }
}

TEST_CASE("corbin account refines the adversary's program while its bracket is wide", "[cli][unit]") {
  // n = 10 on LDPQ, e^ε = 3, 1 000 rounds, δ = 10^-5: the program's first grid (a step of 1/16)
  // left [128.438, 128.909], 0.37 % wide; finer passes within the work budget narrow it to under
  // 0.1 % (both ends certified on every pass, so the narrowest of each stands).
  const Json j = run_json({"--n", "10", "--gamma", "1", "--exp-eps", "3", "--rounds", "1000", "--delta", "1e-5"});
  const double lower = j["eps_lower_approx"].get<double>(), upper = j["eps_upper_approx"].get<double>();
  CHECK(lower <= upper);
  CHECK(upper - lower < 1.5e-3 * upper);
  CHECK(lower > 128.438);
  CHECK(upper < 128.909);
}
