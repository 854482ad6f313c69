#pragma once
// MNIST-format (IDX) files: big-endian header, magic 0x00000803 for images (count, rows, cols)
// and 0x00000801 for labels (count), then unsigned bytes. Files may be gzipped or not (zlib
// reads both). Errors name the directory (data) and the file.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace corbin::fl {

struct Images {
  std::size_t count = 0, rows = 0, cols = 0;
  std::vector<std::uint8_t> pixels;  ///< count × rows × cols, row-major
};

Images read_idx_images(const std::string& path);
std::vector<std::uint8_t> read_idx_labels(const std::string& path);

/// The four files of an MNIST-format directory (train-images-idx3-ubyte[.gz], ...), checked for
/// matching counts and labels 0..9.
struct Dataset {
  Images images;
  std::vector<std::uint8_t> labels;
};
struct MnistFiles {
  Dataset train, test;
};
MnistFiles load_mnist_dir(const std::string& dir);

/// "sha256:…" of the four files' contents (shapes, pixels, labels; not the compression): a
/// resumed run names its data by it, so data rewritten under the same path is refused.
std::string content_sha256(const MnistFiles& files);

}  // namespace corbin::fl
