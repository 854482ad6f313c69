#include "corbin/fl/checkpoint.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "corbin/io/files.hpp"
#include "corbin/io/json_reader.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl {
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
namespace {

constexpr const char* kFormat = "corbin fl checkpoint 2";
/// The largest state.json read (its settings and counters take under 1 KB).
constexpr std::size_t kMaxStateBytes = 1 << 20;

/// Ends the process at `step` of the checkpoint covering `rounds` rounds when the test hook
/// names it: CORBIN_TEST_ABORT_AT=step (any checkpoint) or step@rounds (tests only).
void abort_point(const char* step, unsigned long rounds) {
  const char* at = std::getenv("CORBIN_TEST_ABORT_AT");
  if (at == nullptr) return;
  const std::string hook(at), name(step);
  if (hook == name || hook == name + "@" + std::to_string(rounds)) std::_Exit(86);
}

std::string float_bytes(const std::vector<float>& v) {
  static_assert(sizeof(float) == 4, "float32");
  std::string bytes(v.size() * 4, '\0');
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint32_t u;
    std::memcpy(&u, &v[i], 4);
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>(u >> (8 * b));
  }
  return bytes;
}

std::vector<float> read_floats(const fs::path& path, std::size_t count) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size != 4 * count)
    throw invalid_argument("checkpoint", quote(path.string()) + (ec ? "" : " (" + std::to_string(size) + " bytes)"),
                           std::to_string(4 * count) + " bytes, the model's float32 parameters");
  std::ifstream f(path, std::ios::binary);
  std::string bytes(4 * count, '\0');
  if (!f.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw invalid_argument("checkpoint", quote(path.string()), "a readable checkpoint file");
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t u = 0;
    for (int b = 0; b < 4; ++b) u |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[4 * i + b])) << (8 * b);
    std::memcpy(&out[i], &u, 4);
  }
  return out;
}

std::string directory_name(unsigned long round) {
  std::ostringstream s;
  s << "checkpoint." << std::setw(6) << std::setfill('0') << round;
  return s.str();
}

/// state.json's field as T, or invalid_argument naming the checkpoint and the field.
template <class T>
T field(const Json& j, const char* key, const fs::path& path) {
  if (!j.contains(key)) throw invalid_argument("checkpoint", quote(path.string()), std::string("a field ") + key);
  const Json& v = j[key];
  bool typed = true;
  if constexpr (std::is_same_v<T, unsigned long>) typed = v.is_number_unsigned();
  else if constexpr (std::is_same_v<T, double>) typed = v.is_number();
  else if constexpr (std::is_same_v<T, std::string>) typed = v.is_string();
  if (!typed)
    throw invalid_argument("checkpoint", quote(path.string()) + " field " + key + " = " + v.dump(),
                           "a value of the type a checkpoint writes");
  return v.get<T>();
}

}  // namespace

std::uint64_t extend_log_checksum(std::uint64_t checksum, const std::string& line) {
  return io::fnv1a("\n", io::fnv1a(line, checksum));
}

void save_checkpoint(const fs::path& out, const Checkpoint& state) {
  const std::string name = directory_name(state.server.next_round);
  const fs::path partial = out / (name + ".partial"), final_dir = out / name, link = out / "checkpoint";
  io::remove_tree(partial, "out");
  fs::create_directory(partial);
  abort_point("made", state.server.next_round);
  io::write_atomically(partial / "global.f32", float_bytes(state.server.global), "out");
  io::write_atomically(partial / "best.f32", float_bytes(state.server.best), "out");
  abort_point("models", state.server.next_round);
  Json j = Json::object();
  j["format"] = kFormat;
  Json settings = Json::object();
  for (const auto& [key, value] : state.settings) settings[key] = value;
  j["settings"] = settings;
  j["next_round"] = state.server.next_round;
  j["best_validation"] = state.server.best_validation;
  j["best_round"] = state.server.best_round;
  j["since_best"] = state.server.since_best;
  j["reloads"] = state.server.reloads;
  j["log_checksum"] = std::to_string(state.log_checksum);
  io::write_atomically(partial / "state.json", j.dump(1) + "\n", "out");
  abort_point("state", state.server.next_round);
  io::remove_tree(final_dir, "out");  // a leftover of an earlier attempt at this round, never the live one
  fs::rename(partial, final_dir);
  io::sync_directory(out, "out");
  abort_point("renamed", state.server.next_round);
  // Point DIR/checkpoint at the new directory in one rename (a run from before this format may
  // have left a real directory there; it is replaced once the new checkpoint is complete).
  const fs::path next_link = out / "checkpoint.link";
  fs::remove(next_link);
  fs::create_directory_symlink(name, next_link);
  if (fs::is_directory(fs::symlink_status(link))) io::remove_tree(link, "out");
  fs::rename(next_link, link);
  io::sync_directory(out, "out");
  abort_point("linked", state.server.next_round);
  // Older checkpoints (and any attempt a kill left behind) are no longer needed.
  // Listed first, removed after: removing entries while a directory_iterator reads the same
  // directory is unspecified (std::filesystem leaves it to readdir).
  std::vector<fs::path> stale;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string n = entry.path().filename().string();
    if (n.rfind("checkpoint.", 0) == 0 && n != name && n != "checkpoint.link" && entry.is_directory() &&
        !entry.is_symlink())
      stale.push_back(entry.path());
  }
  for (const auto& path : stale) io::remove_tree(path, "out");
}

Checkpoint load_checkpoint(const fs::path& out, const RunSettings& settings, std::size_t parameters) {
  const fs::path dir = out / "checkpoint", path = dir / "state.json";
  if (!fs::exists(path)) throw invalid_argument("checkpoint", quote(path.string()), "an existing checkpoint of a run");
  // Bounded before the parser recurses: the state is a few hundred bytes of flat JSON.
  const std::string bytes = io::read_regular_file(path, kMaxStateBytes, "checkpoint");
  // A key given twice is refused: the settings compared below would be either value.
  Json j = io::parse_ordered_json(bytes, "checkpoint", path.string());
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw invalid_argument("checkpoint", quote(path.string()), std::string("a checkpoint in the format '") + kFormat + "'");
  const Json saved = field<Json>(j, "settings", path);
  if (!saved.is_object()) throw invalid_argument("checkpoint", quote(path.string()), "a settings object");
  for (const auto& [key, value] : settings)
    if (!saved.contains(key) || saved[key] != value)
      throw invalid_argument("checkpoint", "a run with " + key + " = " + saved.value(key, Json()).dump(),
                             "the same " + key + " as this one (" + Json(value).dump() + ")");
  // Both ways: a setting recorded only when it is not the default (the split) must not be
  // dropped by a run that leaves it at the default.
  for (const auto& item : saved.items()) {
    const std::string& key = item.key();
    if (std::none_of(settings.begin(), settings.end(), [&](const auto& s) { return s.first == key; }))
      throw invalid_argument("checkpoint", "a run with " + key + " = " + item.value().dump(),
                             "the same " + key + " as this one (none: the default)");
  }
  Checkpoint state;
  state.settings = settings;
  state.server.next_round = field<unsigned long>(j, "next_round", path);
  state.server.best_validation = field<double>(j, "best_validation", path);
  state.server.best_round = field<unsigned long>(j, "best_round", path);
  state.server.since_best = field<unsigned long>(j, "since_best", path);
  state.server.reloads = field<unsigned long>(j, "reloads", path);
  try {
    state.log_checksum = std::stoull(field<std::string>(j, "log_checksum", path));
  } catch (const std::logic_error&) {
    throw invalid_argument("checkpoint", quote(path.string()) + " field log_checksum", "a decimal checksum");
  }
  state.server.global = read_floats(dir / "global.f32", parameters);
  state.server.best = read_floats(dir / "best.f32", parameters);
  return state;
}

}  // namespace corbin::fl
