// End-to-end tests of the `corbin` executable: the DESIGN.md contract (keys, "p/q" strings,
// _approx twins) and the bad-input contract (exit 2, one line on stderr naming the option).

#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct Result {
  int status;
  std::string out, err;
};

Result run(const std::string& args) {
  // One file per test process: ctest -j runs test cases side by side in one directory.
  const std::string err_file = "corbin_cli_stderr." + std::to_string(getpid()) + ".txt";
  const std::string cmd = std::string(CORBIN_CLI_PATH) + " " + args + " 2>" + err_file;
  Result r{0, "", ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (FILE* f = fopen(err_file.c_str(), "r")) {
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) r.err.append(buf, n);
    fclose(f);
  }
  std::remove(err_file.c_str());
  return r;
}

}  // namespace

TEST_CASE("corbin joint --json follows the contract", "[cli][unit]") {
  const Result r = run("joint --exp-eps 3 --center 0 --radius 1 --w 1/4 --w2 -0.125 --bits 2 --json");
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
  CHECK(j["exact"] == true);
}

TEST_CASE("corbin gap --sup and pldp report computed verdicts", "[cli][unit]") {
  const auto sup = nlohmann::json::parse(run("gap --sup --alpha 2 --bits 5 --json").out);
  CHECK(sup["sup_gap"] == "1/4");
  CHECK(sup["paper_gap_bound"] == "8");
  CHECK(sup["bound_over_sup"] == "32");
  CHECK(sup["w"] == "1/16");
  const auto printed = nlohmann::json::parse(run("pldp --alpha 2 --bits 5 --variant as-printed --json").out);
  CHECK(printed["ratio"] == "24/7");
  CHECK(printed["verdict"] == "fails");
  const auto ref = nlohmann::json::parse(run("pldp --exp-eps 33 --bits 5 --variant reference-code --json").out);
  CHECK(ref["ratio"] == "unbounded");
  const auto eps = nlohmann::json::parse(run("joint --eps 1 --w 0.3 --w2 0.1 --bits 4096 --json").out);
  CHECK(eps["exact"] == false);
  CHECK(eps["marginal1_interval"].size() == 2);
  const auto agg = nlohmann::json::parse(
      run("mse --alpha 3 --weights 1/2,-1/3,1/4 --bits 4 --json").out);
  CHECK(agg["n"] == 3);
  CHECK(agg["pairing"] == "0-1");
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
