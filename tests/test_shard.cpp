// Sharded runs end to end: `corbin sweep --shard i/N` for N = 1, 2, 3 merged by `corbin merge`
// equals the unsharded CSV byte for byte (the shards given in any order); the same shard twice is
// the same bytes, and a Slurm array task's variables give the shard --shard names; every bad
// --shard, every inconsistent Slurm variable and every wrong set of shards at merge (missing,
// repeated, foreign, another N, altered, not a shard) is exit 2 with one line naming it and nothing
// written; a sharded quick audit merged equals the unsharded one file for file
// (its own ctest entry, after the Coq build when there is one); analysis/fl_experiments.py's
// shards partition its runs.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "corbin/io/files.hpp"
#include "corbin/version.hpp"
#include "process.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("corbin_shard_" + std::to_string(getpid()) +
                                                    "_" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> with(std::vector<std::string> argv, const std::vector<std::string>& more) {
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

Outcome cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  return run_process(with({CORBIN_CLI_PATH}, args), env);
}

/// A refusal: exit 2, one line on stderr that names `what`, nothing on stdout.
void refused(const Outcome& o, const std::string& what) {
  INFO(o.err);
  CHECK(o.status == 2);
  CHECK(o.err_lines() == 1);
  CHECK(o.err.find(what) != std::string::npos);
  CHECK(o.out.empty());
}

/// A shard file's text edited by `edit` and resealed: its sha256 recomputed as a forger would,
/// so that what is refused is the content, not the hash.
std::string resealed(const std::string& text, const std::function<void(nlohmann::ordered_json&)>& edit) {
  auto j = nlohmann::ordered_json::parse(text);
  edit(j);
  j.erase("sha256");
  const std::string hash = corbin::io::sha256_hex(j.dump());
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [key, value] : j.items()) {
    out[key] = value;
    if (key == "format") out["sha256"] = hash;
  }
  return out.dump(1) + "\n";
}

/// Every regular file under `dir`, by relative path, with its bytes.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = read(entry.path());
  return files;
}

/// The sweeps the tests shard: a pair grid, a law (several CSV lines per grid point), the
/// mechanisms' PLDP ratio (rooms without a budget or pairing answer once: uneven points), and a
/// certified (transcendental ε) grid.
const std::vector<std::vector<std::string>> kSweeps = {
    {"sweep", "--quantity", "mse", "--exp-eps", "3,5", "--bits", "2,5", "--w", "1/4", "--w2",
     "-1/8,0"},
    {"sweep", "--quantity", "law", "--mechanism", "ldp,rqm3", "--exp-eps", "3,9", "--w", "0,1/3"},
    {"sweep", "--quantity", "pldp_ratio", "--mechanism", "rqm3,corbin,signsgd", "--exp-eps", "9",
     "--bits", "0,5"},
    {"sweep", "--quantity", "sup_gap", "--eps", "0.1:7:5", "--bits", "1,5"}};

/// Shard files of `sweep` for N, written under `dir`; returns their paths (i = 0 .. N−1).
std::vector<std::string> shard_files(const std::vector<std::string>& sweep, std::size_t n,
                                     const fs::path& dir) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < n; ++i) {
    const Outcome o = cli(with(sweep, {"--shard", std::to_string(i) + "/" + std::to_string(n)}));
    INFO(o.err);
    REQUIRE(o.status == 0);
    paths.push_back(
        (dir / ("s" + std::to_string(i) + "of" + std::to_string(n) + ".json")).string());
    write(paths.back(), o.out);
  }
  return paths;
}

}  // namespace

TEST_CASE("corbin merge of a sweep's N = 1, 2, 3 shards is the unsharded CSV byte for byte",
          "[shard][unit]") {
  const fs::path dir = scratch();
  for (const auto& sweep : kSweeps) {
    const Outcome whole = cli(sweep);
    INFO(whole.err);
    REQUIRE(whole.status == 0);
    REQUIRE(std::count(whole.out.begin(), whole.out.end(), '\n') > 3);
    for (std::size_t n = 1; n <= 3; ++n) {
      std::vector<std::string> paths = shard_files(sweep, n, dir);
      std::reverse(paths.begin(), paths.end());  // the order of the files does not matter
      const Outcome merged = cli(with({"merge"}, paths));
      INFO(merged.err);
      CHECK(merged.status == 0);
      CHECK(merged.out == whole.out);
    }
  }
}

TEST_CASE(
    "a shard file records the run, i, N and its items, and the same input gives the same bytes",
    "[shard][unit]") {
  const auto& sweep = kSweeps[0];  // 8 grid points: shard 1/3 holds points 1, 4, 7
  const Outcome a = cli(with(sweep, {"--shard", "1/3"})),
                b = cli(with(sweep, {"--shard", "1/3"}));
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("\"command\": \"sweep\"") != std::string::npos);
  CHECK(a.out.find("\"--exp-eps\": \"3,5\"") != std::string::npos);
  CHECK(a.out.find("\"sha256\": \"sha256:") != std::string::npos);
  CHECK(a.out.find(std::string("\"corbin\": \"") + corbin::kVersion + "\"") != std::string::npos);
  CHECK(a.out.find("\"shard\": 1,\n \"of\": 3,\n \"items\": 8,") != std::string::npos);
  std::vector<int> items;
  for (std::size_t at = a.out.find("\"item\": "); at != std::string::npos;
       at = a.out.find("\"item\": ", at + 1))
    items.push_back(std::stoi(a.out.substr(at + 8)));
  CHECK(items == std::vector<int>{1, 4, 7});
  // A Slurm array task's variables name the same shard: --array=0-2 and --array=1-3 (ids from MIN),
  // --array=0-8:4 (ids 0, 4, 8), each saying so once on stderr; --shard overrides them.
  const std::vector<std::vector<std::string>> arrays = {
      {"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3"},
      {"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"},
      {"SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_STEP=4",
       "SLURM_ARRAY_TASK_COUNT=3"}};
  for (const auto& env : arrays) {
    const Outcome s = cli(sweep, env);
    INFO(s.err);
    CHECK(s.status == 0);
    CHECK(s.out == a.out);
    CHECK(s.err_lines() == 1);
    CHECK(s.err.find("shard 1/3 from SLURM_ARRAY_TASK_ID") != std::string::npos);
    CHECK(cli(with(sweep, {"--shard", "1/3"}),
                 {"SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_COUNT=2"})
              .out == a.out);
  }
  // --shard none: the whole CSV inside an array task.
  CHECK(cli(with(sweep, {"--shard", "none"}), arrays[0]).out == cli(sweep).out);
}

TEST_CASE(
    "a bad --shard or inconsistent Slurm variables are exit 2 naming them, with nothing written",
    "[shard][unit]") {
  const auto& sweep = kSweeps[0];
  for (const std::string bad : {"3/2", "2/2", "0/0", "x", "-1/2", "1/-2", "1/", "/2", "1/2x",
                                " 1/2", "1.0/2", "1/2/3", "0/99999999999", ""})
    refused(cli(with(sweep, {"--shard", bad})), "--shard is '" + bad + "'");
  const std::vector<std::pair<std::vector<std::string>, std::string>> slurm = {
      {{"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=3"}, "SLURM_ARRAY_TASK_ID is '3'"},
      {{"SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"},
       "SLURM_ARRAY_TASK_ID is '0'"},
      {{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_STEP=4", "SLURM_ARRAY_TASK_COUNT=3"},
       "SLURM_ARRAY_TASK_ID is '2'"},
      {{"SLURM_ARRAY_TASK_ID=one", "SLURM_ARRAY_TASK_COUNT=3"}, "SLURM_ARRAY_TASK_ID is 'one'"},
      {{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3x"}, "SLURM_ARRAY_TASK_COUNT is '3x'"},
      {{"SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_COUNT=0"}, "SLURM_ARRAY_TASK_COUNT is '0'"},
      {{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=-1"},
       "SLURM_ARRAY_TASK_MIN is '-1'"},
      {{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_STEP=0"},
       "SLURM_ARRAY_TASK_STEP is '0'"},
      {{"SLURM_ARRAY_TASK_ID=1"}, "SLURM_ARRAY_TASK_COUNT is unset"},
      {{"SLURM_ARRAY_TASK_COUNT=3"}, "SLURM_ARRAY_TASK_ID is unset"},
      // A newline stays inside the one line; digits are a count however many, and a count too
      // large for the array is refused by the range it breaks, not as "digits only".
      {{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=2\n"}, "SLURM_ARRAY_TASK_COUNT is '2\\n'"},
      {{"SLURM_ARRAY_TASK_ID=1099511627776", "SLURM_ARRAY_TASK_COUNT=3"},
       "SLURM_ARRAY_TASK_ID is '1099511627776', but must be one of SLURM_ARRAY_TASK_MIN"},
      {{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=99999999999999999999999"},
       "SLURM_ARRAY_TASK_COUNT is '99999999999999999999999', but must be a count below 2^62"}};
  for (const auto& [env, what] : slurm) refused(cli(sweep, env), what);
  // Leading zeros are digits: 000000000000001 of 0000000000003 is shard 1/3.
  const Outcome zeros = cli(sweep, {"SLURM_ARRAY_TASK_ID=000000000000001", "SLURM_ARRAY_TASK_COUNT=0000000000003"});
  INFO(zeros.err);
  CHECK(zeros.status == 0);
  CHECK(zeros.out == cli(with(sweep, {"--shard", "1/3"})).out);
  // The audit refuses before it creates its output directory.
  const fs::path dir = scratch() / "audit";
  refused(cli({"audit", "--quick", "--no-figures", "--out", dir.string(), "--shard", "3/2"}),
          "--shard is '3/2'");
  refused(cli({"audit", "--quick", "--no-figures", "--out", dir.string()}, slurm[0].first),
          slurm[0].second);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE(
    "corbin merge refuses a missing, repeated, foreign or altered shard with one line naming it",
    "[shard][unit]") {
  const fs::path dir = scratch();
  const auto& sweep = kSweeps[0];
  const std::vector<std::string> three = shard_files(sweep, 3, dir);
  refused(cli({"merge", three[0], three[2]}), "shard 1/3 is missing");
  refused(cli({"merge", three[1]}), "shard 0/3 is missing");
  refused(cli({"merge", three[0], three[1], three[1], three[2]}), "shard 1/3 is given twice");
  // Another run's shard 1/3 (another --exp-eps), and a shard of the same run cut in two.
  const fs::path other = dir / "other.json";
  write(other, cli({"sweep", "--quantity", "mse", "--exp-eps", "3,6", "--bits", "2,5", "--w",
                       "1/4", "--w2", "-1/8,0", "--shard", "1/3"})
                   .out);
  refused(cli({"merge", three[0], other.string(), three[2]}),
          other.string() + " is a shard of a different run (its --exp-eps is '3,6', not '3,5')");
  const std::vector<std::string> two = shard_files(sweep, 2, dir);
  refused(cli({"merge", three[0], two[1], three[2]}),
          two[1] + " is shard 1/2, but must be a shard i/3");
  // Any edit to what merge reads is caught by the sha256: the run, a result (a changed row, an
  // extra row), the shared header, the items.
  const std::string text = read(three[1]);
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"\"3,5\"", "\"3,7\""}, {"\"items\": 8", "\"items\": 7"}, {"mse", "msE"}, {"\"item\": 4", "\"item\": 5"}};
  for (const auto& [from, to] : edits) {
    const fs::path edited = dir / "edited.json";
    REQUIRE(text.find(from) != std::string::npos);
    write(edited, std::string(text).replace(text.find(from), from.size(), to));
    refused(cli({"merge", three[0], edited.string(), three[2]}), edited.string() + " is altered");
  }
  const fs::path extra_row = dir / "extra_row.json";
  const std::size_t row = text.find("\\n\"");
  REQUIRE(row != std::string::npos);
  write(extra_row, std::string(text).insert(row, "\\n0,0,0,0"));
  refused(cli({"merge", three[0], extra_row.string(), three[2]}), extra_row.string() + " is altered");
  // Resealed edits (the hash recomputed): what is inconsistent is still refused, naming the file.
  const fs::path forged = dir / "forged.json";
  const std::vector<std::pair<std::function<void(nlohmann::ordered_json&)>, std::string>> forgeries = {
      {[](auto& j) { j["results"][1]["item"] = 5; }, " is holding item 5 as shard 1/3"},
      {[](auto& j) { j["items"] = 5; }, " is holding item 7 as shard 1/3"},
      {[](auto& j) { j["run"]["corbin"] = "0.0.1"; }, " is written by corbin '0.0.1'"},
      {[](auto& j) { j["extra"] = nlohmann::ordered_json::array(); }, " is holding the key 'extra'"},
      {[](auto& j) { j["results"][0]["result"] = 7; }, "item 1 is '7', but must be a sweep's CSV rows"},
      {[](auto& j) { j["results"][0]["more"] = 1; }, " is holding a result"}};
  for (const auto& [edit, what] : forgeries) {
    write(forged, resealed(text, edit));
    refused(cli({"merge", three[0], forged.string(), three[2]}), what);
  }
  // Every shard's items lowered alike (15 → 9 in the report that found it): refused, not 9 rows.
  std::vector<std::string> lowered;
  for (const auto& path : three) {
    lowered.push_back((fs::path(path).parent_path() / ("low_" + fs::path(path).filename().string())).string());
    write(lowered.back(), resealed(read(path), [](auto& j) { j["items"] = 5; }));
  }
  refused(cli(with({"merge"}, lowered)), "as shard");
  // Nested 200 000 deep in an extra key: refused before parsing, naming the file and the limit.
  const fs::path deep = dir / "deep.json";
  write(deep, std::string(text).insert(1, "\"x\": " + std::string(200000, '[') + std::string(200000, ']') + ",\n"));
  refused(cli({"merge", three[0], deep.string(), three[2]}), "nested at most 64 deep");
  const fs::path not_shard = dir / "not_shard.json";
  write(not_shard, "{\"a\": 1}\n");
  refused(cli({"merge", not_shard.string()}), not_shard.string() + " is not a shard file");
  refused(cli({"merge", (dir / "absent.json").string()}), "absent.json is unreadable");
  refused(cli({"merge", dir.string()}), " is unreadable");
  // A sweep's merge prints the CSV: --out is the audit's.
  refused(cli({"merge", "--out", (dir / "report").string(), three[0], three[1], three[2]}),
          "--out");
  CHECK_FALSE(fs::exists(dir / "report"));
}

// Hidden from discovery ("[.]"): tests/CMakeLists.txt runs it as its own test, after the Coq build
// when there is one, since the report states whether the proofs were checked.
TEST_CASE(
    "a quick audit sharded in two and merged writes the unsharded audit's files byte for byte",
    "[.][shard_audit]") {
  const fs::path dir = scratch();
  const std::string whole = (dir / "whole").string(), shards = (dir / "shards").string(),
                    merged = (dir / "merged").string();
  const Outcome w = cli({"audit", "--quick", "--no-figures", "--out", whole});
  INFO(w.err);
  REQUIRE(w.status == 0);
  for (const char* shard : {"0/2", "1/2"}) {
    const Outcome s =
        cli({"audit", "--quick", "--no-figures", "--out", shards, "--shard", shard});
    INFO(s.err);
    REQUIRE(s.status == 0);
  }
  // Only the two shard files: the report is the merge's.
  CHECK(tree(shards).size() == 2);
  const std::string s0 = shards + "/audit.shard-0-of-2.json",
                    s1 = shards + "/audit.shard-1-of-2.json";
  refused(cli({"merge", "--no-figures", "--out", merged, s1}), "shard 0/2 is missing");
  CHECK_FALSE(fs::exists(merged));
  const Outcome m = cli({"merge", "--no-figures", "--out", merged, s1, s0});
  INFO(m.err);
  REQUIRE(m.status == 0);
  const auto expected = tree(whole), got = tree(merged);
  REQUIRE(expected.size() == 32);  // audit.md, 29 certificates, 2 figure data files
  CHECK(got.size() == expected.size());
  for (const auto& [path, bytes] : expected) {
    INFO(path);
    CHECK(got.count(path) == 1);
    if (got.count(path) == 1) CHECK(got.at(path) == bytes);
  }
  // The same summary on standard output, but for the directory's name.
  std::string summary = w.out;
  summary.replace(summary.find(whole), whole.size(), merged);
  CHECK(m.out == summary);
  // A sweep's shard is another run's.
  const fs::path sweep = dir / "sweep.json";
  write(sweep, cli(with(kSweeps[0], {"--shard", "1/2"})).out);
  refused(cli({"merge", "--out", merged, s0, sweep.string()}),
          sweep.string() +
              " is a shard of a different run (a shard of corbin sweep, not corbin audit)");
}

TEST_CASE("fl_experiments.py --shard i/N partitions the dry run's runs, and a bad shard is exit 2",
          "[shard][unit]") {
  const fs::path dir = scratch();
  const std::vector<std::string> script = {"/usr/bin/python3",
                                           CORBIN_SOURCE_DIR "/analysis/fl_experiments.py",
                                           "--corbin",
                                           CORBIN_CLI_PATH,
                                           "--out",
                                           dir.string(),
                                           "--dry-run"};
  // A run's line: "<experiment> <name>-s<seed> <state> <command>".
  const auto runs = [](const std::string& out) {
    std::multiset<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      if (line.find(" fl --out ") != std::string::npos) lines.insert(line);
    return lines;
  };
  const Outcome all = run_process(script);
  INFO(all.err);
  REQUIRE(all.status == 0);
  const auto every = runs(all.out);
  REQUIRE(every.size() > 10);
  std::multiset<std::string> joined;
  std::vector<std::multiset<std::string>> shards;
  for (const char* shard : {"0/3", "1/3", "2/3"}) {
    const Outcome s = run_process(with(script, {"--shard", shard}));
    REQUIRE(s.status == 0);
    shards.push_back(runs(s.out));
    CHECK(shards.back().size() >= every.size() / 3);
    joined.insert(shards.back().begin(), shards.back().end());
  }
  CHECK(joined == every);
  // (Each run of the script costs about 0.6 s, matplotlib's import: the cases are few.)
  const Outcome slurm = run_process(
      script, {"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"});
  CHECK(runs(slurm.out) == shards[1]);
  for (const std::string bad : {"3/3", "-1/2"}) {
    const Outcome o =
        run_process(with(script, {"--shard=" + bad}));  // = : argparse would read -1/2 as an option
    CHECK(o.status == 2);
    CHECK(o.err == "fl experiments: --shard is '" + bad +
                       "', but must be i/N with integers 0 <= i < N (shard i of N, counted from "
                       "0), or none\n");
  }
  const Outcome late = run_process(script, {"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=3"});
  CHECK(late.status == 2);
  CHECK(late.err.rfind("fl experiments: SLURM_ARRAY_TASK_ID is '3'", 0) == 0);
  CHECK(tree(dir).empty());
}
