#include "corbin/io/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include "corbin/number/error.hpp"

extern char** environ;

namespace corbin::io {
namespace {

/// The process groups of running children, for kill_running_children (a signal handler may read
/// them at any time: lock-free atomics only).
constexpr std::size_t kSlots = 64;
std::array<std::atomic<pid_t>, kSlots> running_groups{};

void remember(pid_t pgid) {
  for (auto& slot : running_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
}

void forget(pid_t pgid) {
  for (auto& slot : running_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

int remaining_ms(ChildProcess::Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ChildProcess::Clock::now())
          .count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000000));
}

/// write(2) with SIGPIPE blocked (a closed pipe is reported as EPIPE, never kills us), any SIGPIPE
/// it raised consumed before the mask is restored.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  const ssize_t n = ::write(fd, data, size);
  const int saved = errno;
  if (n < 0 && saved == EPIPE) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return n;
}

}  // namespace

void kill_running_children() noexcept {
  for (auto& slot : running_groups)
    if (const pid_t pgid = slot.load(); pgid > 0) ::kill(-pgid, SIGKILL);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& what,
                           std::uint64_t stderr_limit)
    : stderr_limit_(stderr_limit) {
  if (argv.empty() || argv[0].empty()) throw invalid_argument(what, "empty", "a program to start");
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0)
    throw invalid_argument(what, quote(argv[0]), std::string("startable: ") + std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    throw invalid_argument(what, quote(argv[0]), std::string("startable: ") + std::strerror(errno));
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    throw invalid_argument(what, quote(argv[0]), std::string("startable: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // A group of its own (so that stop() reaches what it starts, and a terminal's Ctrl-C reaches us
  // first), every signal at its default and none blocked: a parent that ignores SIGPIPE must not
  // hand that on.
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t defaults, none;
  sigfillset(&defaults);
  sigdelset(&defaults, SIGKILL);
  sigdelset(&defaults, SIGSTOP);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int error = posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  in_ = in[1];
  out_ = out[0];
  err_ = err[0];
  if (error != 0) {
    pid_ = -1;
    stopped_ = true;
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    throw invalid_argument(
        what, quote(argv[0]),
        std::string("a program that can be started (") + std::strerror(error) + ")");
  }
  remember(pid_);
  for (int fd : {in_, out_, err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() {
  stop(std::chrono::milliseconds(0));
}

void ChildProcess::close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool ChildProcess::drain_stderr() {
  char buffer[65536];
  while (err_ >= 0) {
    const ssize_t n = ::read(err_, buffer, sizeof buffer);
    if (n > 0) {
      stderr_bytes_ += static_cast<std::uint64_t>(n);
      err_tail_.append(buffer, static_cast<std::size_t>(n));
      constexpr std::size_t kTail = 4096;
      if (err_tail_.size() > 2 * kTail) err_tail_.erase(0, err_tail_.size() - kTail);
      if (stderr_bytes_ > stderr_limit_) return false;
      continue;
    }
    if (n == 0) {
      close_fd(err_);
      break;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) close_fd(err_);
    break;
  }
  return stderr_bytes_ <= stderr_limit_;
}

void ChildProcess::read_stdout() {
  char buffer[65536];
  while (out_ >= 0) {
    const ssize_t n = ::read(out_, buffer, sizeof buffer);
    if (n > 0) {
      out_buffer_.append(buffer, static_cast<std::size_t>(n));
      if (static_cast<std::size_t>(n) < sizeof buffer) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) {
      out_eof_ = true;
      close_fd(out_);
    }
    return;
  }
}

ChildProcess::Status ChildProcess::write(std::string_view bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    if (in_ < 0) return Status::closed;
    const ssize_t n = write_without_sigpipe(in_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) {
      close_fd(in_);
      return Status::closed;
    }
    if (Clock::now() >= deadline) return Status::timeout;
    pollfd fds[2] = {{in_, POLLOUT, 0}, {err_, POLLIN, 0}};
    ::poll(fds, err_ >= 0 ? 2 : 1, std::min(remaining_ms(deadline), 100));
    if (!drain_stderr()) return Status::stderr_limit;
  }
  return Status::ok;
}

ChildProcess::Status ChildProcess::read_line(std::string& line, Clock::time_point deadline,
                                             std::size_t max_bytes) {
  for (;;) {
    const auto newline = out_buffer_.find('\n', scanned_);
    if (newline != std::string::npos) {
      line.assign(out_buffer_, 0, newline);
      out_buffer_.erase(0, newline + 1);
      scanned_ = 0;
      return Status::ok;
    }
    scanned_ = out_buffer_.size();
    if (out_buffer_.size() > max_bytes) return Status::line_limit;
    if (!drain_stderr()) return Status::stderr_limit;
    if (out_eof_) {
      line = out_buffer_;
      out_buffer_.clear();
      scanned_ = 0;
      return Status::closed;
    }
    if (Clock::now() >= deadline) return Status::timeout;
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    const int ready = ::poll(fds, 2, std::min(remaining_ms(deadline), 100));
    if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) read_stdout();
  }
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (stopped_) return status_;
  stopped_ = true;
  close_fd(in_);
  // Let it finish on its own for the grace period (it may be writing a last line), draining its
  // output so that a full pipe does not hold it; check for its exit without reaping it, so that
  // its process group's id stays reserved until the group is killed.
  const auto deadline = Clock::now() + grace;
  siginfo_t info{};
  bool exited = false;
  for (;;) {
    info.si_pid = 0;
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid_) {
      exited = true;
      break;
    }
    if (Clock::now() >= deadline) break;
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    ::poll(fds, 2, std::min(remaining_ms(deadline), 10));
    read_stdout();
    out_buffer_.clear();
    drain_stderr();
  }
  killed_ = !exited;
  ::kill(-pid_, SIGKILL);  // the group: whatever it started, and itself if still running
  int raw = 0;
  while (::waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
  }
  forget(pid_);
  status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : 127;
  close_fd(out_);
  close_fd(err_);
  return status_;
}

std::string ChildProcess::stderr_last_line() const {
  std::string text = err_tail_;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const auto at = text.rfind('\n');
  return at == std::string::npos ? text : text.substr(at + 1);
}

}  // namespace corbin::io
