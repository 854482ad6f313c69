#pragma once
// Runs a program from the tests with an argument vector (no shell, so hostile arguments arrive
// exactly as written) and extra environment variables, capturing its exit status, standard output
// and standard error.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

struct Outcome {
  int status = -1;  ///< exit status, or 128 + signal
  std::string out, err;
  /// The lines of standard error.
  std::size_t err_lines() const {
    std::size_t n = 0;
    for (char c : err) n += c == '\n';
    return n;
  }
};

inline Outcome run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                           const std::filesystem::path& cwd = {}) {
  static int counter = 0;
  const auto base = std::filesystem::temp_directory_path() /
                    ("corbin_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  const std::string out_path = base.string() + ".out", err_path = base.string() + ".err";
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> envs;
  for (char** e = environ; *e != nullptr; ++e) envs.emplace_back(*e);
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (std::string& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  const std::filesystem::path previous = std::filesystem::current_path();
  if (!cwd.empty()) std::filesystem::current_path(cwd);
  pid_t pid = 0;
  Outcome o;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  if (!cwd.empty()) std::filesystem::current_path(previous);
  posix_spawn_file_actions_destroy(&actions);
  if (error == 0) {
    int raw = 0;
    waitpid(pid, &raw, 0);
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  }
  const auto slurp = [](const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  };
  o.out = slurp(out_path);
  o.err = slurp(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return o;
}
