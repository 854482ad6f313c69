#include "data_files.hpp"

#include <cstdlib>

namespace corbin::cli {

namespace fs = std::filesystem;

fs::path executable_dir() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : self.parent_path();
}

namespace {

/// PREFIX/share/corbin seen from PREFIX/bin (CORBIN_DATA_FROM_BIN, from GNUInstallDirs' layout).
fs::path installed_data_dir() {
  const fs::path bin = executable_dir();
  return bin.empty() ? fs::path() : (bin / CORBIN_DATA_FROM_BIN).lexically_normal();
}

}  // namespace

bool installed() {
  const fs::path data = installed_data_dir();
  std::error_code error;
  return !data.empty() && fs::is_directory(data, error);
}

fs::path data_file(const std::string& relative) {
  return (installed() ? installed_data_dir() : fs::path(CORBIN_SOURCE_DIR)) / relative;
}

fs::path installed_coq_build() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path cache = xdg != nullptr && *xdg != '\0' ? fs::path(xdg)
                         : home != nullptr             ? fs::path(home) / ".cache"
                                                       : fs::temp_directory_path();
  return cache / "corbin" / "coq";
}

}  // namespace corbin::cli
