#include "shard.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "corbin/io/files.hpp"
#include "corbin/io/json_reader.hpp"
#include "corbin/number/error.hpp"
#include "corbin/version.hpp"

namespace corbin::cli {
namespace {

constexpr const char* kFormat = "corbin shard 2";
const std::string kShardRule = "i/N with integers 0 <= i < N <= " + std::to_string(kMaxShards) +
                               " (shard i of N, counted from 0), or none";

/// A decimal count without sign or spaces (std::stoul would take " 3", "+3", "3x"); leading zeros
/// are digits like any other. nullopt when it is not digits; `limit` + 1 when it is digits but
/// larger than `limit` (so that the caller can say which rule it broke).
std::optional<std::size_t> decimal(const std::string& text, std::size_t limit) {
  if (text.empty()) return std::nullopt;
  std::size_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (value <= limit) value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return std::min(value, limit + 1);
}

/// The largest Slurm count read (a job array is far smaller; this keeps the arithmetic exact).
constexpr std::size_t kMaxSlurmCount = std::size_t{1} << 62;

/// A Slurm variable that must be a count (the message names the variable, as --shard's names the
/// option).
std::size_t slurm_count(const char* name, const char* value) {
  const auto parsed = decimal(value, kMaxSlurmCount);
  if (!parsed) throw invalid_argument(name, quote(value), "a count (digits only)");
  if (*parsed > kMaxSlurmCount) throw invalid_argument(name, quote(value), "a count below 2^62");
  return *parsed;
}

/// A shard file's SHA-256 over everything but its "sha256" key, as the file orders it.
std::string integrity_of(Json document) {
  document.erase("sha256");
  return io::sha256_hex(document.dump());
}

/// The keys of a shard file, in the order it writes them.
const char* const kShardKeys[] = {"format", "sha256", "run", "shard", "of", "items", "shared", "results"};

constexpr const char* kShardFileRule =
    "a shard file written by corbin sweep or corbin audit with --shard";

/// An argument's value as a message shows it: a string quoted as given, anything else as JSON.
std::string shown(const Json& value) {
  return quote(value.is_string() ? value.get<std::string>() : value.dump());
}

/// The first way `run` differs from `first` ("its --eps is '1,2', not '1,3'").
std::string difference(const Json& run, const Json& first) {
  if (run.value("command", "") != first.value("command", ""))
    return "a shard of corbin " + run.value("command", "?") + ", not corbin " +
           first.value("command", "?");
  if (run.value("corbin", "") != first.value("corbin", ""))
    return "written by corbin " + run.value("corbin", "?") + ", not " + first.value("corbin", "?");
  const Json& a = run.at("arguments");
  const Json& b = first.at("arguments");
  for (const auto& [key, value] : b.items())
    if (!a.contains(key) || a.at(key) != value)
      return "its " + key + " is " + (a.contains(key) ? shown(a.at(key)) : "absent") + ", not " +
             shown(value);
  for (const auto& [key, value] : a.items())
    if (!b.contains(key)) return "it has " + key + ", which the other has not";
  return "its identity differs";
}

}  // namespace

std::string Shard::name() const {
  return std::to_string(index) + "/" + std::to_string(count);
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw invalid_argument("--shard", quote(text), kShardRule);
  const auto i = decimal(text.substr(0, slash), kMaxShards),
             n = decimal(text.substr(slash + 1), kMaxShards);
  if (!i || !n || *n < 1 || *n > kMaxShards || *i >= *n) throw invalid_argument("--shard", quote(text), kShardRule);
  return {*i, *n};
}

std::optional<Shard> shard_to_run(const std::string& text, bool given, const std::string& command,
                                  const std::function<const char*(const char*)>& env) {
  if (given) {
    if (text == "none") return std::nullopt;
    return parse_shard(text);
  }
  const char* id_text = env("SLURM_ARRAY_TASK_ID");
  const char* count_text = env("SLURM_ARRAY_TASK_COUNT");
  if (id_text == nullptr && count_text == nullptr) return std::nullopt;
  if (id_text == nullptr || count_text == nullptr)
    throw invalid_argument(
        id_text == nullptr ? "SLURM_ARRAY_TASK_ID" : "SLURM_ARRAY_TASK_COUNT", "unset",
        "set with the other (a Slurm array task has both; --shard none ignores them)");
  const std::size_t id = slurm_count("SLURM_ARRAY_TASK_ID", id_text);
  const std::size_t count = slurm_count("SLURM_ARRAY_TASK_COUNT", count_text);
  const char* min_text = env("SLURM_ARRAY_TASK_MIN");
  const char* step_text = env("SLURM_ARRAY_TASK_STEP");
  const std::size_t min =
      min_text == nullptr ? 0 : slurm_count("SLURM_ARRAY_TASK_MIN", min_text);
  const std::size_t step =
      step_text == nullptr ? 1 : slurm_count("SLURM_ARRAY_TASK_STEP", step_text);
  if (count < 1 || count > kMaxShards)
    throw invalid_argument("SLURM_ARRAY_TASK_COUNT", quote(count_text),
                           "in [1, " + std::to_string(kMaxShards) + "] (the number of shards)");
  if (step < 1) throw invalid_argument("SLURM_ARRAY_TASK_STEP", quote(step_text), "at least 1");
  const std::string range =
      "one of SLURM_ARRAY_TASK_MIN + k × SLURM_ARRAY_TASK_STEP for k in [0, "
      "SLURM_ARRAY_TASK_COUNT) = " +
      std::to_string(min) + " + k × " + std::to_string(step) + ", k < " + std::to_string(count) +
      " (an array a-b or a-b:s; --shard i/N otherwise)";
  if (id < min || (id - min) % step != 0 || (id - min) / step >= count)
    throw invalid_argument("SLURM_ARRAY_TASK_ID", quote(id_text), range);
  const Shard shard{(id - min) / step, count};
  std::cerr << "corbin " << command << ": shard " << shard.name()
            << " from SLURM_ARRAY_TASK_ID=" << id_text
            << (min_text != nullptr ? std::string(", SLURM_ARRAY_TASK_MIN=") + min_text : "")
            << (step_text != nullptr ? std::string(", SLURM_ARRAY_TASK_STEP=") + step_text : "")
            << " and SLURM_ARRAY_TASK_COUNT=" << count_text
            << " (--shard overrides; --shard none runs it whole)\n";
  return shard;
}

Json run_identity(const std::string& command, const Json& arguments) {
  Json run = Json::object();
  run["command"] = command;
  run["corbin"] = kVersion;
  run["arguments"] = arguments;
  return run;
}

std::string shard_text(const ShardFile& file) {
  Json j = Json::object();
  j["format"] = kFormat;
  j["sha256"] = "";  // its place in the file; filled in below
  j["run"] = file.run;
  j["shard"] = file.shard.index;
  j["of"] = file.shard.count;
  j["items"] = file.items;
  j["shared"] = file.shared;
  Json results = Json::array();
  for (const auto& [item, result] : file.results) {
    Json r = Json::object();
    r["item"] = item;
    r["result"] = result;
    results.push_back(std::move(r));
  }
  j["results"] = std::move(results);
  j["sha256"] = integrity_of(j);
  return j.dump(1) + "\n";
}

ShardFile parse_shard_file(std::string_view bytes, const std::string& where) {
  if (bytes.size() > kMaxShardBytes)
    throw invalid_argument(where, std::to_string(bytes.size()) + " bytes",
                           "a shard file of at most " + std::to_string(kMaxShardBytes) + " bytes");
  // Nesting is bounded before the parser recurses (a result nested 200 000 deep is 400 KB), and
  // a key given twice is refused: the hash is of what was read, which would pass with either value.
  const Json j = io::parse_ordered_json(bytes, "the shard file", where);
  ShardFile file;
  try {
    if (!j.is_object() || !j.contains("format") || j.at("format") != kFormat)
      throw invalid_argument(where,
                             "not a shard file (no \"format\": \"" + std::string(kFormat) + "\")",
                             kShardFileRule);
    for (const auto& [key, value] : j.items())
      if (std::find(std::begin(kShardKeys), std::end(kShardKeys), key) == std::end(kShardKeys))
        throw invalid_argument(where, "holding the key " + quote(key), "a shard file with only its own keys");
    // The hash covers every byte merge reads; anything edited after the shard wrote it differs.
    if (!j.contains("sha256") || !j.at("sha256").is_string() || j.at("sha256").get<std::string>() != integrity_of(j))
      throw invalid_argument(where, "altered (its sha256 does not match its content)", kShardFileRule);
    file.run = j.at("run");
    const Json& version = file.run.at("corbin");
    if (version != kVersion)
      throw invalid_argument(where, "written by corbin " + shown(version),
                             std::string("written by this corbin, ") + kVersion +
                                 " (merge with the corbin that ran the shards)");
    file.shard.index = j.at("shard").get<std::size_t>();
    file.shard.count = j.at("of").get<std::size_t>();
    if (file.shard.count < 1 || file.shard.count > kMaxShards ||
        file.shard.index >= file.shard.count)
      throw invalid_argument(where, "shard " + file.shard.name(),
                             "a shard i/N with 0 <= i < N <= " + std::to_string(kMaxShards));
    file.items = j.at("items").get<std::size_t>();
    file.shared = j.at("shared");
    std::size_t expected = file.shard.index;  // the items held: index, index + N, …
    for (const Json& r : j.at("results")) {
      if (!r.is_object() || r.size() != 2)
        throw invalid_argument(where, "holding a result " + shown(r), "results as {\"item\": k, \"result\": …}");
      const std::size_t item = r.at("item").get<std::size_t>();
      if (item != expected || item >= file.items)
        throw invalid_argument(
            where, "holding item " + std::to_string(item) + " as shard " + file.shard.name(),
            "holding exactly the items k < " + std::to_string(file.items) + " with k mod " +
                std::to_string(file.shard.count) + " = " + std::to_string(file.shard.index));
      file.results.emplace_back(item, r.at("result"));
      expected += file.shard.count;
    }
    if (expected < file.items)
      throw invalid_argument(
          where, "without item " + std::to_string(expected) + " as shard " + file.shard.name(),
          "holding exactly the items k < " + std::to_string(file.items) + " with k mod " +
              std::to_string(file.shard.count) + " = " + std::to_string(file.shard.index));
  } catch (const Json::exception& e) {
    throw invalid_argument(where, "not a shard file (" + std::string(e.what()) + ")", kShardFileRule);
  }
  return file;
}

ShardFile read_shard(const std::filesystem::path& path) {
  const std::string where = visible(path.string());
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw invalid_argument(where, "unreadable", kShardFileRule);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw invalid_argument(where, "unreadable", kShardFileRule);
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxShardBytes)
    throw invalid_argument(where, std::to_string(size) + " bytes",
                           "a shard file of at most " + std::to_string(kMaxShardBytes) + " bytes");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse_shard_file(bytes.str(), where);
}

MergedRun merge_shards(const std::vector<std::filesystem::path>& paths) {
  if (paths.empty()) throw invalid_argument("the shard files", "none", "at least one");
  std::vector<ShardFile> files;
  for (const auto& path : paths) files.push_back(read_shard(path));
  const ShardFile& first = files.front();
  const std::string first_name = visible(paths.front().string());
  std::map<std::size_t, std::size_t> seen;  // shard index -> which file
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ShardFile& file = files[f];
    const std::string where = visible(paths[f].string());
    if (file.run != first.run)
      throw invalid_argument(where,
                             "a shard of a different run (" + difference(file.run, first.run) + ")",
                             "a shard of the run of " + first_name);
    if (file.shard.count != first.shard.count)
      throw invalid_argument(where, "shard " + file.shard.name(),
                             "a shard i/" + std::to_string(first.shard.count) + " like " +
                                 first_name + " (the shards of a run share N)");
    if (file.items != first.items || file.shared != first.shared)
      throw invalid_argument(where,
                             "inconsistent with " + first_name + " (same run, different work)",
                             "a shard of the run of " + first_name);
    const auto [at, fresh] = seen.emplace(file.shard.index, f);
    if (!fresh)
      throw invalid_argument("shard " + file.shard.name(),
                             "given twice (" + visible(paths[at->second].string()) + ", " + where + ")",
                             "given once");
  }
  for (std::size_t i = 0; i < first.shard.count; ++i)
    if (seen.count(i) == 0)
      throw invalid_argument("shard " + Shard{i, first.shard.count}.name(), "missing",
                             "among the files (merge needs all " +
                                 std::to_string(first.shard.count) + " shards of the run)");
  MergedRun merged{first.run, first.shared, std::vector<Json>(first.items), std::vector<std::string>(first.items), first_name};
  for (std::size_t f = 0; f < files.size(); ++f)
    for (const auto& [item, result] : files[f].results) {
      merged.results[item] = result;
      merged.sources[item] = visible(paths[f].string());
    }
  return merged;
}

}  // namespace corbin::cli
