#pragma once
// A program on the other end of three pipes: started with an argument vector (posix_spawnp, never
// a shell) in a process group of its own, spoken to line by line with a deadline on every wait,
// its standard error drained all the while (a child that fills that pipe cannot stall us) and
// capped, and ended with everything it started: stop() closes its input, waits a grace period,
// kills the whole group and reaps it. The destructor stops it, so no path leaves a child running;
// kill_running_children() does the same from a signal handler.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace corbin::io {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  /// What a wait ended with.
  enum class Status {
    ok,
    timeout,       ///< the deadline passed
    closed,        ///< the child closed the pipe (it exited, or closed the stream)
    stderr_limit,  ///< it wrote more than the stderr limit on its standard error
    line_limit,    ///< a line on its standard output grew past the limit
  };

  /// Starts argv (argv[0] searched on PATH when it holds no '/'), its stdin, stdout and stderr
  /// pipes to this object, signals at their defaults. Raises invalid_argument(what) naming argv[0]
  /// when argv is empty or the program cannot be started.
  ChildProcess(const std::vector<std::string>& argv, const std::string& what,
               std::uint64_t stderr_limit);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  /// Writes all of `bytes` to the child's standard input by `deadline`.
  Status write(std::string_view bytes, Clock::time_point deadline);
  /// The next line of the child's standard output, without its newline, by `deadline`; a line
  /// longer than max_bytes ends the wait with line_limit. A last line without a newline before the
  /// end of the stream is returned as `closed` with `line` holding it.
  Status read_line(std::string& line, Clock::time_point deadline, std::size_t max_bytes);

  /// Ends the child: closes its input, lets it exit for `grace` (still draining its output), then
  /// kills its process group (whatever it started too) and reaps it. Returns its exit status, or
  /// 128 + the signal that ended it. Idempotent.
  int stop(std::chrono::milliseconds grace);
  /// Whether stop() had to kill it (it had not exited within the grace period).
  bool killed() const { return killed_; }

  pid_t pid() const { return pid_; }
  std::uint64_t stderr_bytes() const { return stderr_bytes_; }
  /// The last non-empty line the child wrote on its standard error (control characters as they
  /// are).
  std::string stderr_last_line() const;

 private:
  bool drain_stderr();  ///< false once the stderr limit is passed
  void read_stdout();
  void close_fd(int& fd);

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  bool out_eof_ = false, stopped_ = false, killed_ = false;
  int status_ = 0;
  std::string out_buffer_;
  std::size_t scanned_ = 0;  ///< bytes of out_buffer_ already searched for a newline
  std::string err_tail_;
  std::uint64_t stderr_bytes_ = 0, stderr_limit_ = 0;
};

/// Kills the process group of every ChildProcess not yet stopped. Async-signal-safe: for a
/// handler of SIGINT or SIGTERM that then re-raises the signal.
void kill_running_children() noexcept;

}  // namespace corbin::io
