//===- Isolated.cpp - Work bounded by wall-clock time ---------------------===//
#include "Isolated.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace polycuda::polyhedral {

namespace {

/// Writes all of `text` to `fd`; false on an error.
bool writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += n;
  }
  return true;
}

} // namespace

std::optional<std::string>
runWithDeadline(const std::function<std::string()> &work, unsigned limitMs) {
  if (limitMs == 0)
    return work();
  int fds[2];
  if (::pipe(fds) != 0)
    return work(); // No child to be had: unbounded, as without a limit.
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return work();
  }
  if (child == 0) {
    ::close(fds[0]);
    int status = 1;
    try {
      // A leading '+' marks a result, so that an empty one is told apart
      // from a child that died before writing.
      status = writeAll(fds[1], "+" + work()) ? 0 : 1;
    } catch (...) {
    }
    ::close(fds[1]);
    // Not _exit: the sanitizers intercept it and check the child for
    // leaks, and everything the parent owns is still allocated here.
    ::syscall(SYS_exit_group, status);
    ::_exit(status);
  }
  ::close(fds[1]);
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(limitMs);
  std::string text;
  bool finished = false, expired = false;
  char buffer[1 << 16];
  while (!finished && !expired) {
    long left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - Clock::now())
                    .count();
    if (left <= 0) {
      expired = true;
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {
      expired = ready == 0;
      if (ready < 0)
        break;
      continue;
    }
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      finished = true;
    else
      text.append(buffer, n);
  }
  ::close(fds[0]);
  if (!finished)
    ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      text.empty() || text[0] != '+')
    return std::nullopt;
  return text.substr(1);
}

ChildOutcome runInChild(const std::function<std::string()> &work) {
  ChildOutcome outcome;
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr.flush();
  int fds[2];
  if (::pipe(fds) != 0) {
    outcome.result = work(); // No child to be had: run it here.
    return outcome;
  }
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    outcome.result = work();
    return outcome;
  }
  if (child == 0) {
    ::close(fds[0]);
    int status = writeAll(fds[1], "+" + work()) ? 0 : 1;
    ::close(fds[1]);
    std::cout.flush();
    std::exit(status);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    text.append(buffer, n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    outcome.signal = WTERMSIG(status);
  else if (WIFEXITED(status))
    outcome.exitCode = WEXITSTATUS(status);
  if (outcome.signal == 0 && outcome.exitCode == 0 && !text.empty() &&
      text[0] == '+')
    outcome.result = text.substr(1);
  else if (outcome.signal == 0 && outcome.exitCode == 0)
    outcome.exitCode = 1;
  return outcome;
}

} // namespace polycuda::polyhedral
