// Issue 10's reproducers against `corbin fl`: wrong data, kills inside the checkpoint, two runs
// into one folder, damaged logs and checkpoints, unwritable outputs and hostile option values.
// Each ends as one line and exit 2 (or resumes exactly), never a crash or a silent wrong run.

#include <sys/file.h>

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <nlohmann/json.hpp>

#include "corbin/io/files.hpp"
#include "corbin/fl/checkpoint.hpp"
#include "idx_writer.hpp"
#include "process.hpp"

namespace {

Outcome fl(std::vector<std::string> args, const std::vector<std::string>& env = {}, const fs::path& cwd = {}) {
  args.insert(args.begin(), {CORBIN_CLI_PATH, "fl"});
  return run_process(args, env, cwd);
}

std::vector<nlohmann::json> rounds(const fs::path& dir) {
  std::vector<nlohmann::json> out;
  std::ifstream f(dir / "rounds.jsonl");
  for (std::string line; std::getline(f, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

void refused(const Outcome& o, const std::string& name) {
  INFO(o.err);
  CHECK(o.status == 2);
  CHECK(o.err_lines() == 1);
  CHECK(o.err.find(name) != std::string::npos);
}

struct Fixture {
  fs::path data = tiny_dir("faults", 60, true, 8, 8);
  fs::path work = fs::temp_directory_path() / ("corbin_faults_" + std::to_string(getpid()));
  Fixture() {
    fs::remove_all(work);
    fs::create_directories(work);
  }
  ~Fixture() {
    fs::remove_all(data);
    fs::remove_all(work);
  }
  std::vector<std::string> args(const fs::path& out, const std::string& rounds = "3") const {
    return {"--data", data.string(), "--clients", "4", "--rounds", rounds, "--threads", "1", "--exp-eps", "3",
            "--no-figures", "--seed", "4", "--out", out.string()};
  }
};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

}  // namespace

TEST_CASE("fl refuses images of mismatched or non-square size and oversized headers", "[fl][hostile]") {
  Fixture f;
  const fs::path out = f.work / "out";
  // Test images 4×4 beside 8×8 training images (was: wrong pixels read, exit 0; 1×1: a crash).
  write_gz(f.data / "t10k-images-idx3-ubyte.gz", idx_bytes(0x803, {60, 4, 4}, std::vector<std::uint8_t>(60 * 16, 7)));
  refused(fl(f.args(out)), "--data");
  CHECK_FALSE(fs::exists(out));  // nothing written before the data is known to be good
  // Non-square images (was: a libtorch trace and an empty rounds.jsonl).
  const fs::path wide = tiny_dir("wide", 60, true, 8, 6);
  auto args = f.args(out);
  args[1] = wide.string();  // the value of --data
  refused(fl(args), "square");
  fs::remove_all(wide);
  // A header claiming 2^26 images in a file of 60 (was: bad_alloc after asking for 52 GB).
  write_gz(f.data / "t10k-images-idx3-ubyte.gz",
           idx_bytes(0x803, {1u << 26, 8, 8}, std::vector<std::uint8_t>(60 * 64, 7)));
  refused(fl(f.args(out)), "--data");
}

TEST_CASE("a kill at any step of a checkpoint leaves one that resumes exactly", "[fl][hostile]") {
  Fixture f;
  const fs::path straight = f.work / "straight";
  REQUIRE(fl(f.args(straight)).status == 0);
  const auto expected = rounds(straight);
  REQUIRE(expected.size() == 3);
  for (const char* step : corbin::fl::kCheckpointSteps) {
    INFO(step);
    const fs::path out = f.work / step;
    // Killed while writing the checkpoint after round 2 (was: the model renamed before
    // state.json, so an old state could point at the next round's model).
    const Outcome killed = fl(f.args(out), {std::string("CORBIN_TEST_ABORT_AT=") + step + "@2"});
    CHECK(killed.status == 86);
    const Outcome resumed = fl(with(f.args(out), {"--resume"}));
    INFO(resumed.err);
    REQUIRE(resumed.status == 0);
    const auto got = rounds(out);
    REQUIRE(got.size() == 3);
    for (std::size_t r = 0; r < 3; ++r) {
      CHECK(got[r]["test_loss"] == expected[r]["test_loss"]);
      CHECK(got[r]["mse_empirical"] == expected[r]["mse_empirical"]);
    }
    std::size_t checkpoints = 0;  // the old ones are gone
    for (const auto& e : fs::directory_iterator(out))
      checkpoints += e.path().filename().string().rfind("checkpoint.0", 0) == 0;
    CHECK(checkpoints == 1);
  }
}

TEST_CASE("a second run into a folder in use is refused, and damaged state is named", "[fl][hostile]") {
  Fixture f;
  const fs::path out = f.work / "run";
  REQUIRE(fl(f.args(out, "2")).status == 0);
  {  // Another run holds the folder (was: interleaved logs, another seed's checkpoint).
    const int fd = ::open((out / ".lock").c_str(), O_RDWR);
    REQUIRE(::flock(fd, LOCK_EX) == 0);
    refused(fl(with(f.args(out, "2"), {"--force"})), "--out");  // even replacing it: nothing removed
    CHECK(rounds(out).size() == 2);
    ::close(fd);
  }
  // A garbage line inside the rounds the checkpoint covers: refused (was: trained, then aborted).
  {
    std::ofstream(out / "rounds.jsonl", std::ios::trunc) << "{\"round\": 0}\n{garbage\n";
    refused(fl(with(f.args(out, "3"), {"--resume"})), "--resume");
  }
  // A partial line after them (a kill mid-write) is simply cut.
  REQUIRE(fl(with(f.args(out, "2"), {"--force"})).status == 0);
  std::ofstream(out / "rounds.jsonl", std::ios::app) << "{\"round\": 2, \"test_lo";
  CHECK(fl(with(f.args(out, "3"), {"--resume"})).status == 0);
  CHECK(rounds(out).size() == 3);
  // state.json edited: a field of the wrong type, or next_round lowered (was: terminate called,
  // and a silently truncated log).
  const fs::path state = out / "checkpoint" / "state.json";
  nlohmann::json j = nlohmann::json::parse(std::ifstream(state));
  j["next_round"] = "three";
  std::ofstream(state, std::ios::trunc) << j.dump();
  refused(fl(with(f.args(out, "4"), {"--resume"})), "--resume");
  j["next_round"] = 1;
  std::ofstream(state, std::ios::trunc) << j.dump();
  refused(fl(with(f.args(out, "4"), {"--resume"})), "--resume");
  // The checkpoint is a file.
  fs::remove(out / "checkpoint");
  std::ofstream(out / "checkpoint") << "x";
  refused(fl(with(f.args(out, "4"), {"--resume"})), "--resume");
  // --resume into a folder that does not exist: refused, and not created.
  refused(fl(with(f.args(f.work / "none", "2"), {"--resume"})), "--resume");
  CHECK_FALSE(fs::exists(f.work / "none"));
}

TEST_CASE("fl: settings compare as numbers, outputs are checked, nothing goes through a shell", "[fl][hostile]") {
  Fixture f;
  const fs::path out = f.work / "run";
  REQUIRE(fl(f.args(out, "1")).status == 0);
  auto resumed = with(f.args(out, "2"), {"--resume"});
  resumed[std::find(resumed.begin(), resumed.end(), "--exp-eps") - resumed.begin() + 1] = "3.0";
  CHECK(fl(resumed).status == 0);  // was: refused, "3.0" against "3"
  std::ofstream(f.work / "file") << "x";
  refused(fl(f.args(f.work / "file", "1")), "--out");  // was: terminate called
  refused(fl(f.args("", "1")), "--out");
  // rounds.jsonl on a full device: exit 2 (was: exit 0).
  const fs::path full = f.work / "full";
  fs::create_directories(full);
  fs::create_symlink("/dev/full", full / "rounds.jsonl");
  refused(fl(f.args(full, "1")), "--out");
  // --python and --out are arguments, never shell text.
  const Outcome o = fl({"--data", f.data.string(), "--clients", "4", "--rounds", "1", "--threads", "1", "--exp-eps",
                        "3", "--python", "/usr/bin/python3; touch injected;", "--out", "a b"},
                       {}, f.work);
  CHECK(o.status == 0);
  CHECK_FALSE(fs::exists(f.work / "injected"));
  CHECK_FALSE(fs::exists(f.work / "a"));
  CHECK(fs::exists(f.work / "a b" / "summary.json"));
  refused(fl(with(f.args(out, "1"), {"--threads", "100000"})), "--threads");  // was: minutes a round
  const std::pair<const char*, int> kinds[] = {{"filesystem", 2}, {"json", 2}, {"invalid", 2}, {"bad_alloc", 4},
                                               {"runtime", 4},    {"torch", 4}, {"other", 4}};
  for (const auto& [kind, status] : kinds) {
    INFO(kind);
    const Outcome thrown = fl(f.args(f.work / "thrown", "1"), {std::string("CORBIN_TEST_THROW=") + kind});
    CHECK(thrown.err_lines() == 1);  // c10::Error's stack is not printed
    CHECK(thrown.status == status);
  }
  // Budget options are validated even where the mechanism does not use them.
  refused(fl(with(f.args(out, "1"), {"--precision", "NaN"})), "--precision");
  auto vanilla = with(f.args(out, "1"), {"--mechanism", "vanilla"});
  vanilla[std::find(vanilla.begin(), vanilla.end(), "--exp-eps") - vanilla.begin() + 1] = "abc";
  refused(fl(vanilla), "--exp-eps");
  // A mechanism without a budget runs with none given (the λ grid's vanilla runs, issue 26), and
  // its --precision is still checked.
  auto no_budget = with(f.args(f.work / "vanilla", "1"), {"--mechanism", "vanilla"});
  const auto at = std::find(no_budget.begin(), no_budget.end(), "--exp-eps");
  no_budget.erase(at, at + 2);
  const Outcome plain = fl(no_budget);
  INFO(plain.err);
  CHECK(plain.status == 0);
  CHECK(rounds(f.work / "vanilla").size() == 1);
  refused(fl(with(no_budget, {"--precision", "NaN"})), "--precision");
}

TEST_CASE("remove_tree removes a checkpoint directory and leaves what its links point to", "[fl][faults]") {
  const fs::path root = fs::temp_directory_path() / ("corbin_remove_tree_" + std::to_string(getpid()));
  fs::remove_all(root);
  const fs::path tree = root / "checkpoint.000002", outside = root / "kept";
  fs::create_directories(tree / "nested" / "deeper");
  fs::create_directories(outside);
  for (const fs::path& p : {tree / "global.f32", tree / "nested" / "state.json", tree / "nested" / "deeper" / "x",
                            outside / "target"})
    std::ofstream(p) << "bytes";
  fs::create_directory_symlink(outside, tree / "link_to_kept");
  corbin::io::remove_tree(tree, "out");
  CHECK_FALSE(fs::exists(fs::symlink_status(tree)));
  CHECK(fs::exists(outside / "target"));  // a link is removed, never followed
  corbin::io::remove_tree(tree, "out");   // a missing path is no error
  corbin::io::remove_tree(outside / "target", "out");  // a plain file
  CHECK_FALSE(fs::exists(outside / "target"));
  fs::remove_all(root);
}

TEST_CASE("fl: images too small for the model, and budgets too extreme for floats, touch nothing",
          "[fl][hostile]") {
  Fixture f;
  const fs::path out = f.work / "out";
  for (const std::uint32_t side : {1u, 2u, 3u}) {
    INFO(side);
    const fs::path small = tiny_dir("small" + std::to_string(side), 60, true, side, side);
    auto args = f.args(out);
    args[1] = small.string();  // the value of --data
    // Was exit 4, "from is out of bounds for float" (libtorch dividing by a layer's fan-in of 0).
    const Outcome o = fl(args);
    refused(o, "--data");
    CHECK(o.err.find("images at least 4 × 4 for --model cnn") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    CHECK(fl(with(args, {"--model", "mlp"})).status == 0);  // the 2NN takes any side
    fs::remove_all(out);
    fs::remove_all(small);
  }
  // ε = 10^-300 makes α about 2·10^300: LDPQ's outputs c ± rα are no floats. Was exit 2 naming
  // no option, after creating --out with .lock and an empty rounds.jsonl.
  auto tiny = f.args(out);
  tiny[std::find(tiny.begin(), tiny.end(), "--exp-eps") - tiny.begin()] = "--eps";
  tiny[std::find(tiny.begin(), tiny.end(), "--eps") - tiny.begin() + 1] = "1e-300";
  const Outcome t = fl(with(tiny, {"--mechanism", "ldp"}));
  refused(t, "--eps is 1e-300");
  CHECK(t.err.find("fit in a float") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  // A dropout of 10^-300 is a valid probability (was exit 3 naming no option).
  const Outcome d = fl(with(f.args(out, "1"), {"--dropout", "1e-300"}));
  INFO(d.err);
  CHECK(d.status == 0);
}

TEST_CASE("fl --resume: the data are named by their folder and their contents", "[fl][hostile]") {
  Fixture f;
  const fs::path out = f.work / "out";
  REQUIRE(fl(f.args(out, "1")).status == 0);
  // The same folder written another way (was refused: "./data/" against "data").
  auto same = with(f.args(out, "2"), {"--resume"});
  same[1] = (f.data.parent_path() / "." / f.data.filename() / "").string();
  const Outcome s = fl(same);
  INFO(s.err);
  CHECK(s.status == 0);
  CHECK(rounds(out).size() == 2);
  // The folder rewritten with more images (was: resumed on the new data, exit 0).
  const fs::path bigger = tiny_dir("faults", 80, true, 8, 8);
  REQUIRE(bigger == f.data);
  const Outcome r = fl(with(f.args(out, "3"), {"--resume"}));
  refused(r, "data_sha256");
  CHECK(rounds(out).size() == 2);  // the log is as it was
}
