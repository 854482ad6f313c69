#include "corbin/io/files.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <ftw.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "corbin/number/error.hpp"

namespace corbin::io {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path, const std::string& rule, int error = 0) {
  std::string detail = error != 0 ? " (" + std::string(std::strerror(error)) + ")" : "";
  throw invalid_argument(what, quote(path.string()) + detail, rule);
}

/// write(2) until every byte is out, or the error number.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

void sync_directory(const fs::path& dir, const std::string& what) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(what, dir, "a directory that can be opened", errno);
  const int status = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  // Some file systems cannot sync a directory (EINVAL); the rename is then as durable as they allow.
  if (status != 0 && error != EINVAL) fail(what, dir, "a directory whose entries can be synced", error);
}

void check_output_file(const fs::path& path, const std::string& what) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    fail(what, path, "a path that can be examined", errno);
  }
  if (S_ISLNK(st.st_mode)) fail(what, path, "a regular file or a new name, not a symbolic link");
  if (S_ISDIR(st.st_mode)) fail(what, path, "a regular file or a new name, not a directory");
  if (!S_ISREG(st.st_mode))
    fail(what, path, "a regular file or a new name, not a device, FIFO or socket (for the terminal, leave it out)");
}

void check_distinct(const std::vector<NamedPath>& paths) {
  const auto same = [](const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal()) return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
  };
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (same(paths[i].path, paths[j].path))
        throw invalid_argument(paths[i].what, quote(paths[i].path.string()),
                               "another file than " + paths[j].what + " (" + quote(paths[j].path.string()) + ")");
}

void write_atomically(const fs::path& path, std::string_view bytes, const std::string& what) {
  write_together({{path, bytes, what}});
}

void write_together(const std::vector<PendingFile>& files) {
  // Every temporary is complete on disk before the first rename: a failure up to there leaves
  // every path untouched. Renames within one directory do not fail for want of space.
  for (const PendingFile& f : files) check_output_file(f.path, f.what);
  {
    std::vector<NamedPath> named;
    for (const PendingFile& f : files) named.push_back({f.path, f.what});
    check_distinct(named);
  }
  std::vector<fs::path> temporaries;
  const auto discard = [&] {
    for (const fs::path& t : temporaries) ::unlink(t.c_str());
  };
  for (const PendingFile& f : files) {
    const fs::path temporary = f.path.string() + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      const int error = errno;
      discard();
      fail(f.what, f.path, "a writable location", error);
    }
    temporaries.push_back(temporary);
    int error = write_all(fd, f.bytes);
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) {
      discard();
      fail(f.what, f.path, "a location where the file can be written completely", error);
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (::rename(temporaries[i].c_str(), files[i].path.c_str()) != 0) {
      const int error = errno;
      discard();
      fail(files[i].what, files[i].path, "a location where the file can be written completely", error);
    }
  }
  for (const PendingFile& f : files) sync_directory(f.path.parent_path(), f.what);
}

void remove_tree(const fs::path& path, const std::string& what) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    fail(what, path, "a path that can be removed", errno);
  }
  // Depth first (contents before their directory), physical (links removed, not followed).
  const auto remove_one = [](const char* p, const struct stat*, int, struct FTW*) { return ::remove(p) == 0 ? 0 : errno; };
  const int status = ::nftw(path.c_str(), remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (status != 0) fail(what, path, "a path that can be removed", status > 0 ? status : errno);
}

fs::path prepare_output_directory(const std::string& text, const std::string& what) {
  if (text.empty()) throw invalid_argument(what, "empty", "a directory name");
  const fs::path dir(text);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) fail(what, dir, "a directory, not a file");
  fs::create_directories(dir, ec);
  if (ec) fail(what, dir, "a directory that can be created (" + ec.message() + ")");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail(what, dir, "a writable directory", errno);
  return dir;
}

LineFile::LineFile(const fs::path& path, bool truncate, std::string what) : path_(path), what_(std::move(what)) {
  check_output_file(path, what_);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (truncate ? O_TRUNC : 0), 0644);
  if (fd_ < 0) fail(what_, path_, "a writable file", errno);
}

LineFile::~LineFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LineFile::append(std::string_view line) {
  std::string whole(line);
  whole += '\n';
  int error = write_all(fd_, whole);
  if (error == 0 && ::fsync(fd_) != 0) error = errno;
  if (error != 0) fail(what_, path_, "a file that can be written completely", error);
}

DirectoryLock::DirectoryLock(const fs::path& dir, const std::string& what) {
  const fs::path lock = dir / ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail(what, dir, "a directory where a lock file can be made", errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK) fail(what, dir, "a directory no other corbin run is using (another run holds its lock)");
    fail(what, dir, "a directory that can be locked", error);
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw invalid_argument(what, quote(path.string()), "a readable regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw invalid_argument(what, quote(path.string()), "a readable regular file");
  // In pieces, to one byte past the limit: the size is what was read, not what stat said.
  std::string bytes;
  char piece[1 << 16];
  while (bytes.size() <= max_bytes && in.read(piece, sizeof piece).gcount() > 0)
    bytes.append(piece, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw invalid_argument(what, quote(path.string()), "a readable regular file");
  if (bytes.size() > max_bytes)
    throw invalid_argument(what, quote(path.string()) + " (over " + std::to_string(max_bytes) + " bytes)",
                           "at most " + std::to_string(max_bytes) + " bytes");
  return bytes;
}

std::string sha256_hex(std::string_view bytes) { return sha256_hex({bytes}); }

std::string sha256_hex(std::initializer_list<std::string_view> parts) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  for (const std::string_view part : parts)
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(part.data()), part.size());
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  static const char* hex = "0123456789abcdef";
  std::string out = "sha256:";
  for (const unsigned char b : digest) out.append(1, hex[b >> 4]).append(1, hex[b & 15]);
  return out;
}

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace corbin::io
