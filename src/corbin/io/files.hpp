#pragma once
// Output that survives faults: files replaced atomically (a reader, or a run resumed after a kill,
// sees the old content or the new, never a part), lines appended durably, output directories
// checked before use and locked against a second run, and every write error reported. These are
// the only places the toolkit writes files; each raises corbin::invalid_argument naming `what`
// (the caller's name for the file: a parameter's name, e.g. "out", which the CLI maps to its option) and the path.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace corbin::io {

/// Raises invalid_argument(what) unless `path` is absent or a regular file: never a directory, a
/// device (/dev/full), a FIFO or a symbolic link (/dev/stdout is one: renaming over it would
/// replace the link, not write where it points). Every write below checks it first.
void check_output_file(const std::filesystem::path& path, const std::string& what);

/// The caller's files, each named by its `what`: raises invalid_argument naming the second of two
/// that are the same file (the same path, or hard links to one file), before anything is written.
struct NamedPath {
  std::filesystem::path path;
  std::string what;
};
void check_distinct(const std::vector<NamedPath>& paths);

/// The bytes of the regular file `path` (a link to one is followed: reading never harms it), at
/// most `max_bytes` of them; raises invalid_argument(what) naming the path when it is no readable
/// regular file (a directory, a FIFO that would block) or is larger.
std::string read_regular_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what);

/// Writes `bytes` to `path` atomically: into a temporary beside it, flushed and fsync'ed, renamed
/// over `path`, and the directory fsync'ed. On any failure the temporary is removed, `path` is
/// untouched, and invalid_argument(what) is raised.
void write_atomically(const std::filesystem::path& path, std::string_view bytes, const std::string& what);

/// A file for write_together: its path, its content, and the caller's name for it.
struct PendingFile {
  std::filesystem::path path;
  std::string_view bytes;
  std::string what;
};

/// Writes several files all or none: every temporary written and fsync'ed before any is renamed
/// over its path, so that a failure while writing (an unwritable directory, a full disk) leaves
/// every path untouched. (Only a failed rename after another succeeded could leave part; renames
/// in a writable directory do not fail for space.)
void write_together(const std::vector<PendingFile>& files);

/// fsync of a directory, so that renames and new entries in it are on disk.
void sync_directory(const std::filesystem::path& dir, const std::string& what);

/// Removes `path` and, if it is a directory, everything under it (symbolic links are removed,
/// never followed); a missing path is no error. Written on POSIX nftw rather than
/// std::filesystem::remove_all: on the CUDA machine (gcc 13.3, linked with PyTorch's libtorch)
/// remove_all's recursive case called address 0, the first time a checkpoint was replaced.
void remove_tree(const std::filesystem::path& path, const std::string& what);

/// The output directory named by `text`, created with its parents: raises invalid_argument(what)
/// if `text` is empty, names a file, or cannot be created or written.
std::filesystem::path prepare_output_directory(const std::string& text, const std::string& what);

/// A text file that grows by whole lines: each append is written, flushed and fsync'ed, or
/// raises invalid_argument(what) (a full disk, a file that became unwritable).
class LineFile {
 public:
  /// Opens `path` for appending (truncating it first when `truncate`).
  LineFile(const std::filesystem::path& path, bool truncate, std::string what);
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;
  ~LineFile();
  void append(std::string_view line);  ///< `line` plus a newline

 private:
  std::filesystem::path path_;
  std::string what_;
  int fd_ = -1;
};

/// An exclusive lock on a directory for the object's lifetime (flock on DIR/.lock, released by
/// the kernel if the process dies). Raises invalid_argument(what) when another process holds it.
class DirectoryLock {
 public:
  DirectoryLock(const std::filesystem::path& dir, const std::string& what);
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  ~DirectoryLock();

 private:
  int fd_ = -1;
};

/// "sha256:" and the 64 hex digits of SHA-256(`bytes`): what a file's integrity record names
/// (it catches any edit; a deliberate forger can recompute it, there being no key).
std::string sha256_hex(std::string_view bytes);
/// The same of the bytes of `parts` one after another, without joining them in memory.
std::string sha256_hex(std::initializer_list<std::string_view> parts);

/// FNV-1a (64-bit) of `bytes`: a checksum that ties a file's content to the record that covers
/// it (not a cryptographic hash).
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = 14695981039346656037ull);

}  // namespace corbin::io
