#pragma once
// Writes tiny MNIST-format (IDX) directories for the tests.

#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

inline std::string idx_bytes(std::uint32_t magic, const std::vector<std::uint32_t>& dims, const std::vector<std::uint8_t>& data) {
  std::string out;
  const auto put32 = [&](std::uint32_t v) {  // big-endian
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>(v >> s & 0xff));
  };
  put32(magic);
  for (std::uint32_t v : dims) put32(v);
  out.append(data.begin(), data.end());
  return out;
}

inline void write_plain(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }
inline void write_gz(const fs::path& p, const std::string& bytes) {
  gzFile f = gzopen(p.string().c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

/// A tiny MNIST-format directory: `count` rows×cols images per file whose pixels encode their
/// index, labels i mod 10.
inline fs::path tiny_dir(const std::string& name, std::uint32_t count, bool gz, std::uint32_t rows = 2,
                         std::uint32_t cols = 3) {
  const fs::path dir = fs::temp_directory_path() / ("corbin_idx_" + name + std::to_string(getpid()));
  fs::create_directories(dir);
  for (const std::string prefix : {"train", "t10k"}) {
    std::vector<std::uint8_t> pixels, labels;
    for (std::uint32_t i = 0; i < count; ++i) {
      for (std::uint32_t k = 0; k < rows * cols; ++k) pixels.push_back(static_cast<std::uint8_t>(i * rows * cols + k));
      labels.push_back(static_cast<std::uint8_t>(i % 10));
    }
    const auto images = idx_bytes(0x803, {count, rows, cols}, pixels), labs = idx_bytes(0x801, {count}, labels);
    if (gz) {
      write_gz(dir / (prefix + "-images-idx3-ubyte.gz"), images);
      write_gz(dir / (prefix + "-labels-idx1-ubyte.gz"), labs);
    } else {
      write_plain(dir / (prefix + "-images-idx3-ubyte"), images);
      write_plain(dir / (prefix + "-labels-idx1-ubyte"), labs);
    }
  }
  return dir;
}

