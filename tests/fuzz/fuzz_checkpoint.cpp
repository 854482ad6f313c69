// The federated run's checkpoint loader: any state.json either loads or raises invalid_argument
// naming the checkpoint or a place in it (never a JSON library exception, a wrapped integer or a crash).

#include <cstdint>
#include <filesystem>

#include "corbin/number/error.hpp"
#include "corbin/fl/checkpoint.hpp"
#include "scratch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  const fs::path out = scratch_dir(), dir = out / "checkpoint.000001";
  static const bool made = [&] {
    fs::create_directories(dir);
    const std::uint8_t zeros[16] = {};
    write_bytes(dir / "global.f32", zeros, sizeof zeros);
    write_bytes(dir / "best.f32", zeros, sizeof zeros);
    fs::remove(out / "checkpoint");
    fs::create_directory_symlink("checkpoint.000001", out / "checkpoint");
    return true;
  }();
  (void)made;
  write_bytes(dir / "state.json", data, size);
  const corbin::fl::RunSettings settings = {{"seed", "1"}};
  try {
    const corbin::fl::Checkpoint state = corbin::fl::load_checkpoint(out, settings, 4);
    if (state.server.global.size() != 4 || state.server.best.size() != 4) __builtin_trap();
  } catch (const corbin::invalid_argument& e) {
    // The checkpoint, or a place in it ("checkpoint 'state.json' at settings.seed": a key twice).
    if (e.parameter().rfind("checkpoint", 0) != 0) __builtin_trap();
  }
  return 0;
}
