#include "corbin/fl/idx.hpp"

#include <zlib.h>

#include <filesystem>
#include <memory>

#include "corbin/io/files.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl {
namespace {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

GzFile open(const std::string& path) {
  GzFile f(gzopen(path.c_str(), "rb"));
  if (!f) throw invalid_argument("data", path, "a readable MNIST-format (IDX) file");
  return f;
}

void read_exact(gzFile f, void* out, std::size_t bytes, const std::string& path) {
  auto* p = static_cast<unsigned char*>(out);
  while (bytes > 0) {
    const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(bytes, 1u << 30));
    const int got = gzread(f, p, chunk);
    if (got <= 0) throw invalid_argument("data", path, "a complete IDX file (it ends early or is corrupt)");
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
    throw invalid_argument("data", path,
                           "an IDX file with magic " + std::to_string(magic) + " (found " + std::to_string(got) + ")");
}

/// `name` or `name.gz` inside dir.
std::string find(const std::string& dir, const std::string& name) {
  namespace fs = std::filesystem;
  for (const std::string& candidate : {name, name + ".gz"})
    if (fs::exists(fs::path(dir) / candidate)) return (fs::path(dir) / candidate).string();
  throw invalid_argument("data", dir, "a directory holding " + name + " (or " + name + ".gz)");
}

Dataset load_pair(const std::string& dir, const std::string& prefix) {
  Dataset d;
  const std::string images = find(dir, prefix + "-images-idx3-ubyte");
  const std::string labels = find(dir, prefix + "-labels-idx1-ubyte");
  d.images = read_idx_images(images);
  d.labels = read_idx_labels(labels);
  if (d.labels.size() != d.images.count)
    throw invalid_argument("data", labels, "as many labels as " + images + " has images");
  for (std::uint8_t l : d.labels)
    if (l > 9) throw invalid_argument("data", labels, "labels 0..9");
  return d;
}

}  // namespace

namespace {

/// Largest payload read from one IDX file: 2 GiB (MNIST's training images are 47 MB).
constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 31;

/// Exactly `bytes` payload bytes, read in slices so that memory follows what the file holds, not
/// what its header claims; then the file must end.
std::vector<std::uint8_t> read_payload(gzFile f, std::uint64_t bytes, const std::string& path) {
  if (bytes > kMaxPayload)
    throw invalid_argument("data", path + " (its header declares " + std::to_string(bytes) + " bytes)",
                           "an IDX file of at most " + std::to_string(kMaxPayload) + " bytes of data");
  constexpr std::size_t kSlice = std::size_t{1} << 24;
  std::vector<std::uint8_t> out;
  while (out.size() < bytes) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kSlice, bytes - out.size()));
    const std::size_t at = out.size();
    out.resize(at + want);
    const int got = gzread(f, out.data() + at, static_cast<unsigned>(want));
    if (got < 0 || static_cast<std::size_t>(got) < want)
      throw invalid_argument("data", path + " (" + std::to_string(at + static_cast<std::size_t>(std::max(got, 0))) +
                                           " of " + std::to_string(bytes) + " data bytes)",
                             "a complete IDX file (it ends early or is corrupt)");
  }
  unsigned char extra;
  if (gzread(f, &extra, 1) != 0)
    throw invalid_argument("data", path, "an IDX file with no bytes past those its header declares");
  return out;
}

}  // namespace

Images read_idx_images(const std::string& path) {
  const GzFile f = open(path);
  expect_magic(f.get(), 0x803, path);
  Images im;
  im.count = read_u32(f.get(), path);
  im.rows = read_u32(f.get(), path);
  im.cols = read_u32(f.get(), path);
  if (im.rows == 0 || im.cols == 0 || im.rows > 4096 || im.cols > 4096)
    throw invalid_argument("data", path + " (" + std::to_string(im.rows) + " × " + std::to_string(im.cols) + ")",
                           "images of 1 to 4096 rows and columns");
  im.pixels = read_payload(f.get(), std::uint64_t{im.count} * im.rows * im.cols, path);
  return im;
}

std::vector<std::uint8_t> read_idx_labels(const std::string& path) {
  const GzFile f = open(path);
  expect_magic(f.get(), 0x801, path);
  const std::uint32_t count = read_u32(f.get(), path);
  return read_payload(f.get(), count, path);
}

MnistFiles load_mnist_dir(const std::string& dir) {
  MnistFiles files{load_pair(dir, "train"), load_pair(dir, "t10k")};
  const Images &a = files.train.images, &b = files.test.images;
  // Train and test images must have one size, or the test pixels would be read with the train
  // images' shape.
  if (b.rows != a.rows || b.cols != a.cols)
    throw invalid_argument("data",
                           dir + " (test images " + std::to_string(b.rows) + " × " + std::to_string(b.cols) +
                               ", train images " + std::to_string(a.rows) + " × " + std::to_string(a.cols) + ")",
                           "test images of the train images' size");
  if (a.count == 0 || b.count == 0) throw invalid_argument("data", dir, "at least one train and one test image");
  return files;
}

std::string content_sha256(const MnistFiles& files) {
  // Each count and side as 8 little-endian bytes ahead of the bytes it sizes, so that no two
  // different data sets hash the same concatenation.
  const auto header = [](const Dataset& d) {
    std::string h;
    for (const std::uint64_t v : {std::uint64_t{d.images.count}, std::uint64_t{d.images.rows},
                                  std::uint64_t{d.images.cols}, std::uint64_t{d.labels.size()}})
      for (int byte = 0; byte < 8; ++byte) h.push_back(static_cast<char>((v >> (8 * byte)) & 0xFF));
    return h;
  };
  const auto bytes = [](const std::vector<std::uint8_t>& v) {
    return std::string_view(reinterpret_cast<const char*>(v.data()), v.size());
  };
  const std::string train = header(files.train), test = header(files.test);
  return io::sha256_hex({train, bytes(files.train.images.pixels), bytes(files.train.labels), test,
                         bytes(files.test.images.pixels), bytes(files.test.labels)});
}

}  // namespace corbin::fl
