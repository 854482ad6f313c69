// `corbin fl` under mpirun (CORBIN_WITH_MPI): K = 1, 2 and 3 ranks on this machine give the single
// process's rounds bit for bit (every field of rounds.jsonl but the clocks, and the checkpoint's
// model files byte for byte), the bytes each rank moved are logged, a rank that fails ends the
// run with one line from rank 0 and --resume then finishes it as a straight run, and more ranks
// than clients is exit 2 naming them.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "idx_writer.hpp"
#include "process.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<nlohmann::json> rounds(const fs::path& dir) {
  std::vector<nlohmann::json> out;
  std::ifstream f(dir / "rounds.jsonl");
  for (std::string line; std::getline(f, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// `corbin fl` with `options`, under `mpirun -np ranks` (0: no mpirun).
Outcome fl(int ranks, const std::vector<std::string>& options, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv;
  if (ranks > 0) {
    argv = {MPIEXEC_PATH, "-q", "--oversubscribe", "-np", std::to_string(ranks)};
    // CI runs as root, which OpenMPI refuses unless told; the variables reach every rank.
    argv.insert(argv.end(), {"--allow-run-as-root"});
    for (const std::string& e : env) argv.insert(argv.end(), {"-x", e.substr(0, e.find('='))});
  }
  argv.insert(argv.end(), {CORBIN_CLI_PATH, "fl"});
  argv.insert(argv.end(), options.begin(), options.end());
  return run_process(argv, env);
}

/// The fields that depend on the clocks or on the ranks.
bool timing(const std::string& key) {
  return key.rfind("seconds", 0) == 0 || key == "ranks" || key.rfind("mpi_bytes", 0) == 0;
}

}  // namespace

TEST_CASE("corbin fl under mpirun gives the single process's rounds bit for bit", "[fl][mpi]") {
  const fs::path data = tiny_dir("flmpi", 60, true, 8, 8);
  const fs::path base = fs::temp_directory_path() / ("corbin_fl_mpi_" + std::to_string(getpid()));
  fs::remove_all(base);
  for (const std::string mechanism : {"augcorbin", "cq"}) {
    INFO(mechanism);
    const std::vector<std::string> common = {"--data", data.string(), "--clients", "5", "--rounds", "2",
                                             "--threads", "1", "--no-figures", "--mechanism", mechanism,
                                             "--exp-eps", "3", "--dropout", "1/5", "--patience", "10"};
    auto with_out = [&](const std::string& name) {
      std::vector<std::string> o = common;
      o.insert(o.end(), {"--out", (base / (mechanism + name)).string()});
      return o;
    };
    const Outcome single = fl(0, with_out("single"));
    INFO(single.err);
    REQUIRE(single.status == 0);
    const auto expected = rounds(base / (mechanism + "single"));
    REQUIRE(expected.size() == 2);
    for (int k = 1; k <= 3; ++k) {
      INFO("K = " << k);
      const Outcome o = fl(k, with_out(std::to_string(k)));
      INFO(o.err);
      REQUIRE(o.status == 0);
      const fs::path dir = base / (mechanism + std::to_string(k));
      const auto got = rounds(dir);
      REQUIRE(got.size() == expected.size());
      for (std::size_t r = 0; r < got.size(); ++r) {
        for (const auto& [key, value] : expected[r].items())
          if (!timing(key)) {
            INFO("round " << r << " " << key);
            CHECK(got[r][key] == value);
          }
        CHECK(got[r]["ranks"] == k);
        REQUIRE(got[r]["mpi_bytes_sent"].size() == static_cast<std::size_t>(k));
        // Every rank but rank 0 sends its clients' updates and weights: 2 float vectors each.
        if (k > 1) CHECK(got[r]["mpi_bytes_sent"][1].get<double>() > 0);
        CHECK(got[r]["mpi_bytes_sent"][0].get<double>() >= 0);
      }
      for (const char* file : {"checkpoint/global.f32", "checkpoint/best.f32"})
        CHECK(bytes_of(dir / file) == bytes_of(base / (mechanism + "single") / file));
    }
  }
  fs::remove_all(base);
}

TEST_CASE("corbin fl under mpirun: a failing rank ends the run in one line, and --resume finishes it", "[fl][mpi]") {
  const fs::path data = tiny_dir("flmpifail", 60, true, 8, 8);
  const fs::path base = fs::temp_directory_path() / ("corbin_fl_mpi_fail_" + std::to_string(getpid()));
  fs::remove_all(base);
  const std::vector<std::string> common = {"--data", data.string(), "--rounds", "3",
                                           "--threads", "1", "--no-figures", "--mechanism", "corbin",
                                           "--exp-eps", "3", "--patience", "10"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> o = common;
    o.insert(o.end(), extra.begin(), extra.end());
    return o;
  };
  const std::string straight = (base / "straight").string(), broken = (base / "broken").string();
  REQUIRE(fl(0, with({"--clients", "4", "--out", straight})).status == 0);
  // Rank 1 fails in the second round it trains: round 0 is done and checkpointed.
  const Outcome failed = fl(2, with({"--clients", "4", "--out", broken}), {"CORBIN_TEST_FAIL_RANK=1:1"});
  CHECK(failed.status == 4);
  CHECK(failed.err.find("corbin: rank 1: internal error: the test hook CORBIN_TEST_FAIL_RANK") != std::string::npos);
  CHECK(rounds(broken).size() == 1);
  // The failure in one line, after the plain line of the round that was done (stderr is no terminal).
  CHECK(failed.err_lines() == 2);
  CHECK(failed.err.rfind("corbin fl: round 0 of 0-2: ", 0) == 0);
  // Resumed on another number of ranks: the rest of the run, as the straight run did it.
  const Outcome resumed = fl(3, with({"--clients", "4", "--out", broken, "--resume"}));
  INFO(resumed.err);
  REQUIRE(resumed.status == 0);
  CHECK(rounds(broken).size() == 3);
  CHECK(bytes_of(fs::path(broken) / "checkpoint/global.f32") == bytes_of(fs::path(straight) / "checkpoint/global.f32"));
  CHECK(rounds(broken)[2]["test_accuracy"] == rounds(straight)[2]["test_accuracy"]);

  // More ranks than clients, and a bad option: one line each, exit 2.
  const Outcome many = fl(3, with({"--clients", "2", "--out", (base / "many").string()}));
  CHECK(many.status == 2);
  CHECK(many.err == "corbin: the ranks (mpirun -np) is 3, but must be at most --clients (2): each rank holds a client at "
                    "least\n");
  CHECK_FALSE(fs::exists(base / "many"));
  const Outcome bad = fl(2, with({"--clients", "4", "--lambda", "2", "--out", (base / "bad").string()}));
  CHECK(bad.status == 2);
  CHECK(bad.err == "corbin: --lambda is 2, but must be in (0, 1]\n");
  fs::remove_all(base);
}
