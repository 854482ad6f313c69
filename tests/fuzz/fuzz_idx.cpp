// The IDX (MNIST-format) reader: any file either loads, with exactly the payload its header
// declares, or raises invalid_argument naming the data; memory follows the file, not its header.

#include <cstdint>

#include "corbin/fl/idx.hpp"
#include "corbin/number/error.hpp"
#include "scratch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = scratch_dir() / "input.idx";
  write_bytes(path, data, size);
  try {
    const corbin::fl::Images im = corbin::fl::read_idx_images(path.string());
    if (im.pixels.size() != im.count * im.rows * im.cols) __builtin_trap();
  } catch (const corbin::invalid_argument& e) {
    if (e.parameter() != "data") __builtin_trap();
  }
  try {
    (void)corbin::fl::read_idx_labels(path.string());
  } catch (const corbin::invalid_argument& e) {
    if (e.parameter() != "data") __builtin_trap();
  }
  return 0;
}
