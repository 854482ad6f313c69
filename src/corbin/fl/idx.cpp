#include "corbin/fl/idx.hpp"

#include <zlib.h>

#include <filesystem>
#include <memory>

#include "corbin/number/error.hpp"

namespace corbin::fl {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

GzFile open(const std::string& path) {
  GzFile f(gzopen(path.c_str(), "rb"));
  if (!f) throw invalid_argument("--data", path, "a readable MNIST-format (IDX) file");
  return f;
}

void read_exact(gzFile f, void* out, std::size_t bytes, const std::string& path) {
  auto* p = static_cast<unsigned char*>(out);
  while (bytes > 0) {
    const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(bytes, 1u << 30));
    const int got = gzread(f, p, chunk);
    if (got <= 0) throw invalid_argument("--data", path, "a complete IDX file (it ends early or is corrupt)");
    p += got;
    bytes -= static_cast<std::size_t>(got);
  }
}

std::uint32_t read_u32(gzFile f, const std::string& path) {
  unsigned char b[4];
  read_exact(f, b, 4, path);
  return std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | b[3];
}

void expect_magic(gzFile f, std::uint32_t magic, const std::string& path) {
  const std::uint32_t got = read_u32(f, path);
  if (got != magic)
    throw invalid_argument("--data", path,
                           "an IDX file with magic " + std::to_string(magic) + " (found " + std::to_string(got) + ")");
}

/// `name` or `name.gz` inside dir.
std::string find(const std::string& dir, const std::string& name) {
  namespace fs = std::filesystem;
  for (const std::string& candidate : {name, name + ".gz"})
    if (fs::exists(fs::path(dir) / candidate)) return (fs::path(dir) / candidate).string();
  throw invalid_argument("--data", dir, "a directory holding " + name + " (or " + name + ".gz)");
}

Dataset load_pair(const std::string& dir, const std::string& prefix) {
  Dataset d;
  const std::string images = find(dir, prefix + "-images-idx3-ubyte");
  const std::string labels = find(dir, prefix + "-labels-idx1-ubyte");
  d.images = read_idx_images(images);
  d.labels = read_idx_labels(labels);
  if (d.labels.size() != d.images.count)
    throw invalid_argument("--data", labels, "as many labels as " + images + " has images");
  for (std::uint8_t l : d.labels)
    if (l > 9) throw invalid_argument("--data", labels, "labels 0..9");
  return d;
}

}  // namespace

Images read_idx_images(const std::string& path) {
  const GzFile f = open(path);
  expect_magic(f.get(), 0x803, path);
  Images im;
  im.count = read_u32(f.get(), path);
  im.rows = read_u32(f.get(), path);
  im.cols = read_u32(f.get(), path);
  if (im.rows == 0 || im.cols == 0 || im.rows > 4096 || im.cols > 4096 || im.count > (1u << 26))
    throw invalid_argument("--data", path, "an IDX image file with sensible dimensions");
  im.pixels.resize(im.count * im.rows * im.cols);
  read_exact(f.get(), im.pixels.data(), im.pixels.size(), path);
  return im;
}

std::vector<std::uint8_t> read_idx_labels(const std::string& path) {
  const GzFile f = open(path);
  expect_magic(f.get(), 0x801, path);
  const std::uint32_t count = read_u32(f.get(), path);
  if (count > (1u << 26)) throw invalid_argument("--data", path, "an IDX label file with a sensible count");
  std::vector<std::uint8_t> labels(count);
  read_exact(f.get(), labels.data(), labels.size(), path);
  return labels;
}

MnistFiles load_mnist_dir(const std::string& dir) {
  return {load_pair(dir, "train"), load_pair(dir, "t10k")};
}

}  // namespace corbin::fl
