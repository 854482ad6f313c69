#include "fl_checkpoint.hpp"

#include <cstring>
#include <fstream>

#include "corbin/number/error.hpp"

namespace corbin::cli {
namespace fs = std::filesystem;
namespace {

void write_atomically(const fs::path& path, const std::string& bytes) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream f(temporary, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw invalid_argument("--out", quote(path.parent_path().string()), "a writable directory");
  }
  fs::rename(temporary, path);
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
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.eof() && !f.good()) throw invalid_argument("--resume", quote(path.string()), "a readable checkpoint file");
  if (bytes.size() != 4 * count)
    throw invalid_argument("--resume", quote(path.string()) + " (" + std::to_string(bytes.size()) + " bytes)",
                           std::to_string(4 * count) + " bytes, the model's float32 parameters");
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t u = 0;
    for (int b = 3; b >= 0; --b) u = u << 8 | static_cast<unsigned char>(bytes[4 * i + b]);
    std::memcpy(&out[i], &u, 4);
  }
  return out;
}

}  // namespace

void save_checkpoint(const fs::path& out, const FlCheckpoint& state) {
  const fs::path dir = out / "checkpoint";
  fs::create_directories(dir);
  write_atomically(dir / "global.f32", float_bytes(state.global));
  write_atomically(dir / "best.f32", float_bytes(state.best));
  Json j = Json::object();
  j["format"] = "corbin fl checkpoint 1";
  j["settings"] = state.settings;
  j["next_round"] = state.next_round;
  j["best_validation"] = state.best_validation;
  j["best_round"] = state.best_round;
  j["since_best"] = state.since_best;
  j["reloads"] = state.reloads;
  // Written last: a state.json always describes model files that are complete.
  write_atomically(dir / "state.json", j.dump(1) + "\n");
}

FlCheckpoint load_checkpoint(const fs::path& out, const Json& settings, std::size_t parameters) {
  const fs::path dir = out / "checkpoint";
  std::ifstream f(dir / "state.json");
  if (!f) throw invalid_argument("--resume", quote((dir / "state.json").string()), "an existing checkpoint of a run");
  Json j;
  try {
    j = Json::parse(f);
  } catch (const std::exception&) {
    throw invalid_argument("--resume", quote((dir / "state.json").string()), "valid JSON");
  }
  if (!j.contains("format") || j["format"] != "corbin fl checkpoint 1")
    throw invalid_argument("--resume", quote((dir / "state.json").string()), "a corbin fl checkpoint");
  for (const auto& [key, value] : settings.items())
    if (!j["settings"].contains(key) || j["settings"][key] != value)
      throw invalid_argument("--resume", "a run with " + key + " = " + j["settings"].value(key, Json()).dump(),
                             "the same " + key + " as this one (" + value.dump() + ")");
  FlCheckpoint state;
  state.settings = j["settings"];
  state.next_round = j["next_round"].get<unsigned long>();
  state.best_validation = j["best_validation"].get<double>();
  state.best_round = j["best_round"].get<unsigned long>();
  state.since_best = j["since_best"].get<unsigned long>();
  state.reloads = j["reloads"].get<unsigned long>();
  state.global = read_floats(dir / "global.f32", parameters);
  state.best = read_floats(dir / "best.f32", parameters);
  return state;
}

}  // namespace corbin::cli
