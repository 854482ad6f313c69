// End-to-end tests of the `corbin` executable: the DESIGN.md contract (keys, "p/q" strings,
// _approx twins) and the bad-input contract (exit 2, one line on stderr naming the option).

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "corbin/number/rational.hpp"
#include "corbin/version.hpp"
#include "process.hpp"

namespace {

struct Result {
  int status;
  std::string out, err;
};

/// The CLI with `args` split at spaces into its argument vector (started without a shell, as
/// everything the project starts); the word '' stands for an empty argument.
Result run(const std::string& args) {
  std::vector<std::string> argv{CORBIN_CLI_PATH};
  std::stringstream in(args);
  for (std::string word; in >> word;) argv.push_back(word == "''" ? std::string() : word);
  const Outcome o = run_process(argv);
  return {o.status, o.out, o.err};
}

}  // namespace

TEST_CASE("corbin joint --json follows the contract", "[cli][unit]") {
  const Result r =
      run("joint --exp-eps 3 --center 0 --radius 1 --w 1/4 --w2 -0.125 --bits 2 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["joint"]["++"] == "7/128");
  CHECK(j["joint"]["+-"] == "65/128");
  CHECK(j["joint"]["-+"] == "53/128");
  CHECK(j["joint"]["--"] == "3/128");
  CHECK(j["joint"]["+-_approx"].get<double>() == 0.5078125);
  CHECK(j["marginal1"] == "9/16");
  CHECK(j["marginal2"] == "15/32");
  CHECK(j["mse"] == "79/64");
  CHECK(j["mse_optimal"] == "31/64");
  CHECK(j["mse_ldp"] == "507/64");
  CHECK(j["gap"] == "3/4");
  CHECK(j["paper_gap_bound"] == "64");
  CHECK(j["budget_exact"] == true);
}

TEST_CASE("corbin gap --sup and pldp report computed verdicts", "[cli][unit]") {
  const auto sup = nlohmann::json::parse(run("gap --sup --alpha 2 --bits 5 --json").out);
  CHECK(sup["sup_gap"] == "1/4");
  CHECK(sup["paper_gap_bound"] == "8");
  CHECK(sup["bound_over_sup"] == "32");
  CHECK(sup["w"] == "1/16");
  const auto printed =
      nlohmann::json::parse(run("pldp --alpha 2 --bits 5 --variant as-printed --json").out);
  CHECK(printed["ratio"] == "24/7");
  CHECK(printed["verdict"] == "fails");
  const auto ref =
      nlohmann::json::parse(run("pldp --exp-eps 33 --bits 5 --variant reference-code --json").out);
  CHECK(ref["ratio"] == "unbounded");
  const auto eps =
      nlohmann::json::parse(run("joint --eps 1 --w 0.3 --w2 0.1 --bits 4096 --json").out);
  CHECK(eps["budget_exact"] == false);
  CHECK(eps["marginal1_interval"].size() == 2);
  const auto agg =
      nlohmann::json::parse(run("mse --alpha 3 --weights 1/2,-1/3,1/4 --bits 4 --json").out);
  CHECK(agg["n"] == 3);
  CHECK(agg["pairing"] == "0-1");
}

TEST_CASE("corbin ucdp, calibrate, dropout and leakage print their objects", "[cli][unit]") {
  const Result r = run("ucdp --m 100 --n 50 --gamma 1/2 --delta 1e-5 --exp-eps 3 --exact --json");
  REQUIRE(r.status == 0);
  const auto u = nlohmann::json::parse(r.out);
  CHECK(u["paper"]["precondition"] == false);
  CHECK(u["paper"]["eps_u_approx"].get<double>() == Approx(131.2035529928753));
  CHECK(u["cpsgd"]["eps_u_approx"].get<double>() ==
        Approx(2 * u["cpsgd"]["eps_u_consistent_units_approx"].get<double>()));
  CHECK(u["exact"]["remove"]["eps"] == "infinite");
  CHECK(u["exact"]["replace"]["eps_approx"].get<double>() < std::log(3.0));
  // The worst case over every configuration of the others, attained by the one named.
  CHECK(u["exact"]["replace"]["configurations"] == 52);  // 2 candidates × 26 values of j
  CHECK(u["exact"]["replace"]["attained_by"]["other_pairs"] == "12 other pairs at (c, c)");
  const auto g = nlohmann::json::parse(
      run("calibrate gaussian --eps 1 --delta 1e-5 --sensitivity 1 --json").out);
  CHECK(g["sigma_approx"].get<double>() == Approx(3.7306).epsilon(1e-4));
  CHECK(g["sigma_classic_valid"] == false);
  const auto l =
      nlohmann::json::parse(run("calibrate laplace --eps 1/2 --sensitivity 2 --json").out);
  CHECK(l["scale"] == "4");
  CHECK(l["mse"] == "32");
  const auto d = nlohmann::json::parse(
      run("dropout --n 2000 --p 1/10 --delta 1/10 --delta1 1/100 --alpha 2 --json").out);
  CHECK(d["exact"]["singles_bound_holds"] == false);
  const auto k = nlohmann::json::parse(run("leakage --alpha 2 --bits 5 --json").out);
  CHECK(k["claimed_by_paper"] == false);
  CHECK(k["pair_eavesdropper"]["ratio"] == "unbounded");
  CHECK(k["z_holder"]["ratio"] == "unbounded");
}

TEST_CASE("corbin sweep writes one CSV row per grid point, exact where the budget is",
          "[cli][unit]") {
  const Result r = run("sweep --quantity mse --exp-eps 3,5 --bits 2,5 --w 1/4 --w2 -1/8,0");
  REQUIRE(r.status == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 2 * 2 * 2);
  CHECK(r.out.rfind("exp-eps,bits,w,w2,center,radius,variant,mse,mse_exact,mse_lower,mse_upper\n", 0) == 0);
  CHECK(r.out.find("3,2,0.25,-0.125,0,1,corrected,1.234375,79/64,") != std::string::npos);  // = corbin joint
  const Result s = run("sweep --quantity sup_gap --eps 0.1:7:4 --bits 5");
  REQUIRE(s.status == 0);
  CHECK(std::count(s.out.begin(), s.out.end(), '\n') == 5);
  CHECK(run("sweep --quantity mse --eps 1:2 --bits 5").status == 2);
  CHECK(run("sweep --quantity mse --eps 1 --exp-eps 3").status == 2);
}

TEST_CASE("corbin sweep --quantity aggregate_mse: the worst case of the average over n clients, each room's pairing",
          "[cli][unit]") {
  // e^ε = 3 (α = 2), r = 1/20, n = 100: a lone LDPQ client's worst MSE is r²α² = 1/100, a pair's
  // d → ∞ worst case r²α² too (α <= 2), reached at d = 5 (α <= 2^d). The average's: LDP-FL
  // 100·(1/100)/100² = 1/10^4, CorBin-FL 50 pairs 50·(1/100)/100² = 1/(2·10^4), AugCorBin-FL
  // (γ = 1/2: 50 alone, 25 pairs) 75·(1/100)/100² = 3/(4·10^4); vanilla 0; CQ unknown (empty).
  const Result r = run("sweep --quantity aggregate_mse --mechanism ldp,corbin,augcorbin,vanilla,cq --exp-eps 3 "
                       "--n 100 --radius 1/20");
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  CHECK(line == "mechanism,exp-eps,bits,n,center,radius,variant,gamma,aggregate_mse,aggregate_mse_exact,"
                "aggregate_mse_lower,aggregate_mse_upper");
  const std::vector<std::pair<std::string, double>> expected = {
      {"ldp,3,,100,0,1/20,,,", 1e-4}, {"corbin,3,5,100,0,1/20,corrected,,", 5e-5},
      {"augcorbin,3,5,100,0,1/20,corrected,1/2,", 7.5e-5}, {"vanilla,,,100,0,1/20,,,", 0}};
  for (const auto& [prefix, value] : expected) {
    REQUIRE(std::getline(lines, line));
    INFO(line);
    REQUIRE(line.rfind(prefix, 0) == 0);
    const double lower = std::stod(line.substr(line.rfind(',', line.rfind(',') - 1) + 1));
    const double upper = std::stod(line.substr(line.rfind(',') + 1));
    CHECK(lower <= value);
    CHECK(upper >= value);
    CHECK(upper - lower <= 1e-18);
  }
  REQUIRE(std::getline(lines, line));
  CHECK(line == "cq,,,100,0,1/20,,,,,,");
  // An ε budget (transcendental α) is enclosed, and CorBin-FL stays at half LDP-FL's or less (T2c).
  const Result e = run("sweep --quantity aggregate_mse --mechanism ldp,corbin --eps 1 --n 100 --radius 0.05");
  REQUIRE(e.status == 0);
  CHECK(e.out.find("ldp,1,,100,0,1/20,,0.00011706735942077923") != std::string::npos);
  CHECK(e.out.find("corbin,1,5,100,0,1/20,corrected,5.8197670686932642e-05") != std::string::npos);
}

TEST_CASE("corbin sweep --quantity aggregate_mse --weights: the average's MSE at given inputs, exactly",
          "[cli][unit]") {
  // e^ε = 3 (α = 2), r = 1/20, inputs −1/20, 1/40, 0, 1/20. LDP-FL: Σ ((rα)² − w²)/n² =
  // (3/400 + 15/1600 + 1/100 + 3/400)/16 = 11/5120. CQ: positions y = 0, 3/4, 1/2, 1, k = 4, so
  // f_i(s) = 1 for s < 4y_i, else 0: F(s) = 3, 3, 2, 1 = G(s), Y = 9/4, Σ y² = 29/16, and over the
  // shift and the server's order E D² = Y − Y² + (16Y² − 16Σy² − ΣF² + ΣG)/12 = 9/4 − 81/16 +
  // (81 − 29 − 23 + 9)/12 = 17/48, the MSE (2r/4)² · 17/48 = 17/76800 (one order, as given, has
  // 3/25600: the order is the server's to draw). Vanilla 0.
  // CorBin-FL: 53/76800, the mean of `corbin mse --weights ... --pairing` over the 24 orders
  // (test_utility holds the closed form to every order), below LDP-FL's.
  const Result r = run("sweep --quantity aggregate_mse --mechanism ldp,cq,vanilla,corbin --exp-eps 3 --radius 1/20 "
                       "--weights -1/20,1/40,0,1/20");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "mechanism,exp-eps,bits,n,center,radius,variant,weights,aggregate_mse,aggregate_mse_exact,aggregate_mse_lower,"
        "aggregate_mse_upper\n"
        "ldp,3,,4,0,1/20,,-1/20 1/40 0 1/20,0.0021484375,11/5120,0.0021484375,0.0021484375\n"
        "cq,,,4,0,1/20,,-1/20 1/40 0 1/20,0.00022135416666666667,17/76800,0.00022135416666666667,"
        "0.00022135416666666667\n"
        "vanilla,,,4,0,1/20,,-1/20 1/40 0 1/20,0,0,0,0\n"
        "corbin,3,5,4,0,1/20,corrected,-1/20 1/40 0 1/20,0.00069010416666666667,53/76800,0.00069010416666666667,"
        "0.00069010416666666667\n");
  // The same mean over the orders, from the fixed-pairing command: the two agree.
  corbin::Rational mean(0);
  const char* const orders[] = {"0-1,2-3", "0-2,1-3", "0-3,1-2"};
  for (const char* pairing : orders)
    for (const bool reversed : {false, true}) {
      std::string p = pairing;
      if (reversed) p = {p[2], '-', p[0], ',', p[6], '-', p[4]};  // each pair's leader and follower swapped
      const Result m = run("mse --exp-eps 3 --radius 1/20 --weights -1/20,1/40,0,1/20 --json --pairing " + p);
      REQUIRE(m.status == 0);
      mean += corbin::parse_rational(nlohmann::json::parse(m.out)["mse"].get<std::string>(), "mse");
    }
  CHECK(mean / 6 == corbin::Rational(53, 76800));
  // A range is one set of inputs: 100 clients spread over the range; n is their count.
  const Result spread = run("sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --radius 1/20 "
                            "--weights -0.05:0.05:100");
  REQUIRE(spread.status == 0);
  CHECK(spread.out.find("\nldp,3,100,0,1/20,-0.05:0.05:100,") != std::string::npos);
}

TEST_CASE("corbin sweep's CSV records every parameter it used, exactly, in every row", "[cli][unit]") {
  // The parameters that are no axis, right before the value columns; a room's own (the variant and
  // d where clients pair, γ where the pairing is augmented, δ for the Gaussian) empty in the rows of
  // the rooms that do not read it.
  const Result r = run("sweep --quantity aggregate_mse --mechanism ldp,augcorbin,gaussian --exp-eps 3 --n 3 "
                       "--radius 1/3 --gamma 1/3 --delta 1e-6 --bits 4");
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "mechanism,exp-eps,bits,n,center,radius,variant,gamma,delta,aggregate_mse,aggregate_mse_exact,"
        "aggregate_mse_lower,aggregate_mse_upper\n"
        "ldp,3,,3,0,1/3,,,,0.14814814814814815,4/27,0.14814814814814815,0.14814814814814815\n"
        "augcorbin,3,4,3,0,1/3,corrected,1/3,,0.098765432098765432,8/81,0.098765432098765432,0.098765432098765432\n"
        "gaussian,3,,3,0,1/3,,,1/1000000,2.2210155548310121,,2.2210155548310121,2.2210155548310121\n");
  // A row's setting given back reproduces the row.
  const Result again = run("sweep --quantity aggregate_mse --mechanism augcorbin --exp-eps 3 --n 3 --center 0 "
                           "--radius 1/3 --variant corrected --gamma 1/3 --bits 4");
  REQUIRE(again.status == 0);
  CHECK(again.out.find("\naugcorbin,3,4,3,0,1/3,corrected,1/3,0.098765432098765432,8/81,") != std::string::npos);
  // Quantities side by side: the parameters any of them read, once (sup_gap reads no variant, the
  // PLDP ratio does).
  CHECK(run("sweep --quantity sup_gap,pldp_ratio --exp-eps 3 --bits 5 --center 1/2").out ==
        "exp-eps,bits,center,radius,variant,sup_gap,sup_gap_exact,sup_gap_lower,sup_gap_upper,pldp_ratio,"
        "pldp_ratio_exact,pldp_ratio_lower,pldp_ratio_upper\n3,5,1/2,1,corrected,0.25,1/4,0.25,0.25,3,3,3,3\n");
  // The noise's sensitivity as used: 2r from the radius, or as given (then no radius).
  CHECK(run("sweep --quantity gaussian_sigma --eps 1 --delta 1e-5").out.rfind(
            "eps,delta,radius,sensitivity,gaussian_sigma,", 0) == 0);
  CHECK(run("sweep --quantity gaussian_sigma --eps 1 --delta 1e-5 --sensitivity 3").out ==
        "eps,delta,sensitivity,gaussian_sigma,gaussian_sigma_exact,gaussian_sigma_lower,gaussian_sigma_upper\n"
        "1,1e-05,3,11.191894904447825,,11.191894904447825,11.191894904447825\n");
  // Theorem 3's formulas: γ, δ and m are axes, r a parameter.
  CHECK(run("sweep --quantity eps_u_printed --exp-eps 3 --n 1000").out.rfind(
            "exp-eps,n,gamma,delta,m,radius,eps_u_printed,", 0) == 0);
}

TEST_CASE("corbin sweep --mechanism takes any registered room's own quantities", "[cli][unit]") {
  // B1: PBM with m = 1 and RQM with m = 2 have LDPQ's law, so the same lone-client MSE
  // (rα)² − w² = 25/16 − 1/9 = 209/144 at e^ε = 9 (α = 5/4), w = 1/3; RQM with m = 3 does not.
  const Result r =
      run("sweep --quantity law_mse --mechanism ldp,pbm1,rqm2,rqm3 --exp-eps 9 --w 1/3");
  REQUIRE(r.status == 0);
  CHECK(
      r.out ==
      "mechanism,exp-eps,w,center,radius,law_mse,law_mse_exact,law_mse_lower,law_mse_upper\n"
      "ldp,9,0.33333333333333333,0,1,1.4513888888888889,209/144,1.4513888888888889,1.4513888888888889\n"
      "pbm1,9,0.33333333333333333,0,1,1.4513888888888889,209/144,1.4513888888888889,1.4513888888888889\n"
      "rqm2,9,0.33333333333333333,0,1,1.4513888888888889,209/144,1.4513888888888889,1.4513888888888889\n"
      "rqm3,9,0.33333333333333333,0,1,1.2638888888888889,91/72,1.2638888888888889,1.2638888888888889\n");
  // The PLDP ratio against the claim: e^ε exactly for the calibrated rooms; CorBin-FL's at every d
  // (its bits column), the same as the sweep's CorBinQ pldp_ratio; SignSGD unbounded, claiming
  // none.
  const Result p =
      run("sweep --quantity pldp_ratio --mechanism rqm3,corbin,signsgd --exp-eps 9 --bits 0,5");
  REQUIRE(p.status == 0);
  CHECK(p.out ==
        "mechanism,exp-eps,bits,center,radius,variant,pldp_ratio,pldp_ratio_exact,pldp_ratio_lower,pldp_ratio_upper,"
        "bound,bound_exact,bound_lower,bound_upper\n"
        "rqm3,9,,0,1,,9,9,9,9,9,9,9,9\n"
        "corbin,9,0,0,1,corrected,9,9,9,9,9,9,9,9\n"
        "corbin,9,5,0,1,corrected,9,9,9,9,9,9,9,9\n"
        "signsgd,,,0,1,,inf,,inf,inf,,,,\n");
  CHECK(run("sweep --quantity pldp_ratio --exp-eps 9 --bits 0,5").out ==
        "exp-eps,bits,center,radius,variant,pldp_ratio,pldp_ratio_exact,pldp_ratio_lower,pldp_ratio_upper\n"
        "9,0,0,1,corrected,9,9,9,9\n9,5,0,1,corrected,9,9,9,9\n");
  // At a certified budget the ratio and the claim are enclosures of e^1 (no exact cell).
  const Result e = run("sweep --quantity pldp_ratio --mechanism pbm2 --eps 1");
  REQUIRE(e.status == 0);
  const std::string e1 = "2.7182818284590452";
  CHECK(e.out.find("\npbm2,1,0,1," + e1 + ",," + e1 + "," + e1 + "," + e1 + ",," + e1 + "," + e1 +
                   "\n") != std::string::npos);
  // Bits on the wire, no budget.
  CHECK(run("sweep --quantity wire_bits --mechanism ldp,rqm3,signsgd").out ==
        "mechanism,wire_bits,wire_bits_exact,wire_bits_lower,wire_bits_upper\nldp,1,1,1,1\nrqm3,32,"
        "32,32,32\n"
        "signsgd,2,2,2,2\n");
  // A quantity the room cannot answer is refused naming the room and the quantity.
  const Result g = run("sweep --quantity law --mechanism ldp,gaussian --exp-eps 3");
  CHECK(g.status == 2);
  CHECK(g.out.empty());
  CHECK(g.err.find("--mechanism is 'gaussian'") != std::string::npos);
  CHECK(g.err.find("answers law ") != std::string::npos);
  // At a transcendental ε, LDPQ's MSE at w = c is an enclosure of (rα)² = coth(1/2)²
  // = 4.68269437683...
  const Result t = run("sweep --quantity law_mse --mechanism ldp --eps 1 --w 0");
  REQUIRE(t.status == 0);
  CHECK(t.out.find("\nldp,1,0,0,1,4.68269437683116") != std::string::npos);
  const Result u = run("sweep --quantity law --mechanism nope --exp-eps 3");
  CHECK(u.err.find("one of vanilla, ldp, corbin") != std::string::npos);  // the known ones
}

TEST_CASE("corbin --version prints the release and exits 0, whatever the subcommand rule",
          "[cli][unit]") {
  const Result r = run("--version");
  CHECK(r.status == 0);
  CHECK(r.out == std::string("corbin ") + corbin::kVersion + "\n");
  CHECK(r.err.empty());
  CHECK(std::string(corbin::kVersion).find('.') != std::string::npos);
}

TEST_CASE("bad input exits 2 with one line naming the option", "[cli][unit]") {
  const std::pair<const char*, const char*> cases[] = {
      {"joint --alpha 1", "--alpha"},
      {"joint --eps 0", "--eps"},
      {"joint --eps -1", "--eps"},
      {"joint --alpha nan", "--alpha"},
      {"joint --exp-eps inf", "--exp-eps"},
      {"joint --alpha 2 --radius 0", "--radius"},
      {"joint --alpha 2 --radius -1", "--radius"},
      {"joint --alpha 2 --w 1.5", "--w"},
      {"joint --alpha 2 --w2 -2", "--w2"},
      {"joint --alpha 2 --bits -1", "--bits"},
      {"joint --alpha 2 --bits 2.5", "--bits"},
      {"joint --alpha 2 --variant nope", "--variant"},
      {"joint --alpha 2 --center abc", "--center"},
      {"joint --center 0", "budget"},
      {"joint --alpha 2 --eps 1", "--alpha"},
      {"gap --sup --alpha 2 --variant as-printed", "--variant"},
      {"mse --alpha 2 --weights 0,2", "--weights"},
      {"mse --alpha 2 --weights 0,0.5,0.1 --pairing 0-1,1-2", "--pairing"},
      {"pldp --alpha 2 --quantizer gauss", "--quantizer"},
      {"joint --eps 1 --bits 4096 --w 0.3 --precision 8", "--precision"},
      {"ucdp --n 50 --gamma 1/2 --delta 1 --alpha 2", "--delta"},
      {"ucdp --n 50 --gamma 0 --delta 1e-5 --alpha 2", "--gamma"},
      {"ucdp --n 50 --gamma 1/50 --delta 1e-5 --alpha 2", "--gamma"},
      {"ucdp --m 0 --n 50 --gamma 1/2 --delta 1e-5 --alpha 2", "--m"},
      {"ucdp --n 50 --gamma 1/2 --delta 1e-5 --eps 1 --exact", "--eps"},
      {"ucdp --n 50 --gamma 1/2 --delta 1e-5 --alpha 2 --exact --neighbours add", "--neighbours"},
      {"calibrate gaussian --eps 0 --delta 1e-5", "--eps"},
      {"calibrate gaussian --eps 1 --delta 0", "--delta"},
      {"calibrate laplace --eps 1 --sensitivity -2", "--sensitivity"},
      {"calibrate cauchy --eps 1", "mechanism"},
      {"dropout --n 51 --p 1/2 --delta 1e-5 --delta1 1e-6 --alpha 2", "--n"},
      {"dropout --n 50 --p 1 --delta 1e-5 --delta1 1e-6 --alpha 2", "--p"},
      {"dropout --n 50 --p 1/2 --delta 1e-5 --delta1 1e-5 --alpha 2", "--delta1"},
      {"leakage --alpha 2 --bits 11", "--bits"},
      {"sweep --quantity nope --eps 1", "--quantity"},
      {"sweep --quantity mse --eps 1 --bits 1/2", "--bits"},
      {"sweep --quantity law --mechanism gaussian --exp-eps 3", "--mechanism"},
      {"sweep --quantity law --mechanism ldp --eps 1",
       "--mechanism"},  // no exact law at a transcendental ε
      {"sweep --quantity law_mse --mechanism nope --exp-eps 3", "--mechanism"},
      {"sweep --quantity law_mse --exp-eps 3", "--mechanism"},
      {"sweep --quantity mse --mechanism ldp --exp-eps 3", "--mechanism"},
      {"sweep --quantity pldp_ratio --mechanism vanilla", "--mechanism"},
      {"sweep --quantity law_mse --mechanism vanilla --exp-eps 3", "budget"},  // it takes none
      {"sweep --quantity aggregate_mse --mechanism cq --exp-eps 3 --weights 0", "budget"},
      {"sweep --quantity aggregate_mse --mechanism corbin --exp-eps 3 --gamma 1/3", "--gamma"},  // no γ share
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --bits 3", "--bits"},  // no pairs
      {"sweep --quantity law_mse --mechanism ldp --exp-eps 3 --variant as-printed", "--variant"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights 0,1/100000000000000000000000000000000000000000",
       "--weights[1]"},
      {"sweep --quantity law_mse --mechanism ldp --exp-eps 3 --w 2", "--w"},
      {"sweep --quantity law_mse --mechanism ldp --exp-eps 3 --delta 1e-5,1e-6", "--delta"},
      {"sweep --quantity wire_bits --mechanism ldp --exp-eps 3", "budget"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --n 0", "--n"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --w 0", "--w"},
      {"sweep --quantity aggregate_mse --mechanism augcorbin --exp-eps 3 --gamma 1/2,1/3", "--gamma"},
      {"sweep --quantity aggregate_mse --mechanism augcorbin --exp-eps 3 --gamma 3/2", "gamma"},
      {"sweep --quantity aggregate_mse --exp-eps 3", "--mechanism"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights 0,2", "--weights"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights ''", "--weights"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights 0,nan", "--weights"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights 0,0 --n 2", "--n"},
      {"sweep --quantity aggregate_mse --mechanism ldp --exp-eps 3 --weights -1:1:5000", "--weights"},
      {"sweep --quantity aggregate_mse --mechanism corbin --exp-eps 3 --weights -1:1:600", "--weights"},
      {"sweep --quantity law_mse --mechanism ldp --exp-eps 3 --weights 0", "--weights"},
  };
  for (const auto& [args, option] : cases) {
    INFO(args);
    const Result r = run(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(option) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("an undecidable branch exits 3 and asks for precision", "[cli][unit]") {
  const Result r = run("joint --eps 1 --w 0.3 --w2 0.1 --bits 4096 --precision 64");
  CHECK(r.status == 3);
  CHECK(r.err.find("--precision") != std::string::npos);
}

TEST_CASE("corbin sweep takes several quantities on the same axes, side by side", "[cli][unit]") {
  const Result both = run("sweep --quantity mse,gap --exp-eps 3,9 --w 1 --w2 1/2");
  INFO(both.err);
  REQUIRE(both.status == 0);
  const Result mse = run("sweep --quantity mse --exp-eps 3,9 --w 1 --w2 1/2");
  const Result gap = run("sweep --quantity gap --exp-eps 3,9 --w 1 --w2 1/2");
  REQUIRE(mse.status == 0);
  REQUIRE(gap.status == 0);
  // Each row: the axes once, then each quantity's four cells as it prints them alone.
  std::istringstream b(both.out), m(mse.out), g(gap.out);
  std::string lb, lm, lg;
  std::getline(b, lb);
  CHECK(lb == "exp-eps,bits,w,w2,center,radius,variant,mse,mse_exact,mse_lower,mse_upper,gap,gap_exact,gap_lower,"
             "gap_upper");
  std::getline(m, lm);
  std::getline(g, lg);
  for (int row = 0; row < 2; ++row) {
    REQUIRE(std::getline(b, lb));
    REQUIRE(std::getline(m, lm));
    REQUIRE(std::getline(g, lg));
    const std::size_t axes = std::string("3,5,1,0.5,0,1,corrected").size();  // exp-eps,bits,w,w2 and the setting
    CHECK(lb == lm + lg.substr(lg.find(',', axes - 1)));
  }
  // Bad combinations name the option: different axes, an option neither reads, a repeat, the law,
  // and a shard.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"sweep --quantity aggregate_mse,law_mse --mechanism ldp --exp-eps 3", "--quantity"},
      {"sweep --quantity mse,gap --exp-eps 3 --n 100", "--n"},
      {"sweep --quantity mse,mse --exp-eps 3", "--quantity"},
      {"sweep --quantity law,law_mse --mechanism ldp --exp-eps 3", "--quantity"},
      {"sweep --quantity mse,gap --exp-eps 3 --shard 0/2", "--shard"}};
  for (const auto& [args, option] : bad) {
    const Result r = run(args);
    INFO(args << ": " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(option) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("an e^ε that looks like an ε typed in the wrong unit is warned about, and the command runs",
          "[cli][unit]") {
  // 1.0986 = ln 3 given as e^ε: ε = 0.09404, twelve times smaller than meant.
  Result r = run("pldp --exp-eps 1.0986");
  CHECK(r.status == 0);
  CHECK(r.err == "corbin: warning: --exp-eps 1.0986 is e^ε, so ε = 0.09404; for ε = 1.0986 give --eps 1.0986\n");
  CHECK(r.out.find("exp_eps       5493/5000") != std::string::npos);
  // Every command that takes --exp-eps says it (the option's own reader), once.
  r = run("account --n 100 --gamma 1 --exp-eps 6/5 --rounds 2 --delta 1e-5 --neighbours replace");
  CHECK(r.status == 0);
  CHECK(r.err == "corbin: warning: --exp-eps 6/5 is e^ε, so ε = 0.1823; for ε = 6/5 give --eps 6/5\n");
  // Not at e^ε = 3/2 or above, nor for ε or α, nor for a value the command refuses (its own error).
  for (const char* quiet : {"pldp --exp-eps 3/2", "pldp --exp-eps 3", "pldp --eps 1.0986", "pldp --alpha 1.2"}) {
    INFO(quiet);
    r = run(quiet);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
  }
  r = run("pldp --exp-eps 1");
  CHECK(r.status == 2);
  CHECK(r.err.find("warning") == std::string::npos);
}
