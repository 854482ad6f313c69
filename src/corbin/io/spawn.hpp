#pragma once
// Starting another program: always with an argument vector (posix_spawn), never through a shell,
// so no argument (a path with spaces, a `;`) is ever interpreted.

#include <filesystem>
#include <string>
#include <vector>

namespace corbin::io {

/// Runs `argv` (argv[0] is the program's path) and waits for it, its standard output and error
/// going to `log` (created or truncated). Returns its exit status, 128 + the signal that ended it,
/// or 127 if it could not be started (the reason is then written to `log` when possible).
int run_program(const std::vector<std::string>& argv, const std::filesystem::path& log);

}  // namespace corbin::io
