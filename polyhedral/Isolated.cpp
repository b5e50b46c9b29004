//===- Isolated.cpp - Work bounded by wall-clock time ---------------------===//
#include "Isolated.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <functional>
#include <iostream>
#include <map>
#include <new>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

/// In a child of runInChild, its notes (noteInChild), in memory shared
/// with the parent.
std::atomic<unsigned> *childNotes = nullptr;

/// Memory shared between a parent and the child it forks after, for the
/// child's notes; null when it cannot be had.
class SharedNotes {
public:
  SharedNotes() {
    void *page = ::mmap(nullptr, sizeof(std::atomic<unsigned>),
                        PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                        -1, 0);
    if (page != MAP_FAILED)
      notes = new (page) std::atomic<unsigned>(0);
  }
  ~SharedNotes() {
    if (notes)
      ::munmap(notes, sizeof(std::atomic<unsigned>));
  }
  SharedNotes(const SharedNotes &) = delete;
  SharedNotes &operator=(const SharedNotes &) = delete;

  std::atomic<unsigned> *notes = nullptr;
};

} // namespace

void noteInChild(unsigned note) {
  if (childNotes && note < 32)
    childNotes->fetch_or(1u << note);
}

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
  // The processor time of the child is read every kPollMs; a child that
  // gets no processor (a machine far more loaded than its cores) still
  // ends at kWallFactor times the limit by the clock.
  constexpr long kPollMs = 50;
  constexpr unsigned kWallFactor = 4;
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(kWallFactor * limitMs);
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
    int ready = ::poll(&p, 1, static_cast<int>(std::min(left, kPollMs)));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      break;
    if (ready == 0) {
      // (Read only for work past kPollMs: it scans /proc.)
      expired = processTreeCpuMs(child) > limitMs;
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

namespace {

/// The fields of /proc/PID/stat after the command: its parent, and its
/// user, system, and waited-for children's user and system times, in
/// clock ticks. False if the process is gone.
bool readStat(const std::string &pid, long &parent, unsigned long ticks[4]) {
  std::FILE *file = std::fopen(("/proc/" + pid + "/stat").c_str(), "r");
  if (!file)
    return false;
  char buffer[1024];
  size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  buffer[n] = 0;
  // The command is in parentheses and may hold spaces: fields follow the
  // last ')'.
  const char *rest = std::strrchr(buffer, ')');
  if (!rest)
    return false;
  char state;
  long group, session, tty, foreground;
  unsigned long flags, minor, cminor, major, cmajor;
  return std::sscanf(rest + 1,
                     " %c %ld %ld %ld %ld %ld %lu %lu %lu %lu %lu %lu %lu "
                     "%lu %lu",
                     &state, &parent, &group, &session, &tty, &foreground,
                     &flags, &minor, &cminor, &major, &cmajor, &ticks[0],
                     &ticks[1], &ticks[2], &ticks[3]) == 15;
}

/// Every process's children and processor time, from /proc.
struct ProcessTable {
  std::map<long, std::vector<long>> children;
  std::map<long, unsigned long> ticks; ///< user + system, with waited-for children
};

ProcessTable readProcessTable() {
  ProcessTable table;
  if (DIR *proc = ::opendir("/proc")) {
    while (struct dirent *entry = ::readdir(proc)) {
      if (!std::isdigit(static_cast<unsigned char>(entry->d_name[0])))
        continue;
      long parent;
      unsigned long ticks[4];
      if (!readStat(entry->d_name, parent, ticks))
        continue;
      long pid = std::stol(entry->d_name);
      table.children[parent].push_back(pid);
      table.ticks[pid] = ticks[0] + ticks[1] + ticks[2] + ticks[3];
    }
    ::closedir(proc);
  }
  return table;
}

/// Kills the descendants of `pid` (not `pid` itself), deepest first.
void killDescendants(int pid) {
  ProcessTable table = readProcessTable();
  std::function<void(long)> kill = [&](long process) {
    for (long child : table.children[process]) {
      kill(child);
      ::kill(child, SIGKILL);
    }
  };
  kill(pid);
}

} // namespace

unsigned long processTreeCpuMs(int pid) {
  ProcessTable table = readProcessTable();
  unsigned long total = 0;
  std::vector<long> pending = {pid};
  while (!pending.empty()) {
    long next = pending.back();
    pending.pop_back();
    total += table.ticks[next];
    for (long child : table.children[next])
      pending.push_back(child);
  }
  long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? total * 1000 / hz : 0;
}

ChildOutcome
runInChild(const std::function<std::string()> &work, unsigned cpuLimitMs,
           const std::function<unsigned(unsigned notes)> &moreForNotes) {
  ChildOutcome outcome;
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr.flush();
  int fds[2];
  if (::pipe(fds) != 0) {
    outcome.result = work(); // No child to be had: run it here.
    return outcome;
  }
  SharedNotes shared;
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    outcome.result = work();
    return outcome;
  }
  if (child == 0) {
    childNotes = shared.notes;
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
    if (cpuLimitMs) {
      // Every 20 ms, the processor time the child's processes have used.
      struct pollfd p = {fds[0], POLLIN, 0};
      int ready = ::poll(&p, 1, 20);
      if (ready < 0 && errno != EINTR)
        break;
      if (ready <= 0) {
        unsigned limit = cpuLimitMs;
        if (moreForNotes && shared.notes)
          limit = std::max(limit, moreForNotes(shared.notes->load()));
        if (processTreeCpuMs(child) > limit) {
          outcome.overTime = true;
          break;
        }
        continue;
      }
    }
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    text.append(buffer, n);
  }
  ::close(fds[0]);
  if (outcome.overTime) {
    // Its descendants first (the scheduler's child, say), then the child:
    // each is found through its parent while that still lives.
    killDescendants(child);
    ::kill(child, SIGKILL);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (shared.notes)
    outcome.notes = shared.notes->load();
  if (outcome.overTime)
    return outcome;
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
