//===- polycuda_prefault.h - Faulting a scop's output pages in ahead ------===//
//
// Stage: runtime, host half; no CUDA call (polycuda_cuda.cu uses it, and
//   tests/runtime/PrefaultTest.cpp tests it without a GPU).
// Input: page ranges of host memory that a scop's copies to the host will
//   fill, announced when the scop starts.
// Output: those pages mapped writable, by a few threads of their own, while
//   the scop copies in and computes; no byte of them changes.
// Invariants: madvise(MADV_POPULATE_WRITE) faults pages in as a write
//   would but writes nothing, so it may run on memory that the program or
//   the copies use at the same time; nothing waits for it (a page that a
//   copy reaches first is faulted in by the copy, as without it). Ranges
//   not yet started when the scop ends are dropped.
//
// Why: the arrays a scop only writes are often memory that the program
// never touched (PolyBench allocates them and initializes only the
// inputs). A copy to the host then faults in every page on the way, and
// ran at about 7 GB/s on the H100 host, against 45-50 GB/s into touched
// memory. Faulting them in ahead overlaps that cost with the scop's work.
//
//===----------------------------------------------------------------------===//

#ifndef POLYCUDA_RUNTIME_POLYCUDA_PREFAULT_H
#define POLYCUDA_RUNTIME_POLYCUDA_PREFAULT_H

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23 // Linux 5.14
#endif

namespace polycuda {

class Prefaulter {
public:
  /// Ranges are populated in pieces of this size, in the order they came.
  static constexpr size_t kPieceBytes = (size_t)2 << 20;

  /// Starts `threads` threads, which live until the process exits; the
  /// object must too (it is never destroyed).
  explicit Prefaulter(unsigned threads) {
    for (unsigned t = 0; t < threads; ++t)
      std::thread([this] { serve(); }).detach();
  }

  /// False once the kernel refused MADV_POPULATE_WRITE (before Linux 5.14)
  /// or on systems without it: add() then does nothing.
  bool supported() const {
#ifdef MADV_POPULATE_WRITE
    std::lock_guard<std::mutex> lock(mutex);
    return !refused;
#else
    return false;
#endif
  }

  /// Queues the pages of [begin, end) (begin is rounded down to a page;
  /// madvise takes in the last page that end falls into).
  void add(uintptr_t begin, uintptr_t end) {
    if (!supported() || end <= begin)
      return;
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (uintptr_t b = begin; b < end; b += kPieceBytes)
        pieces.push_back({b, b + kPieceBytes < end ? b + kPieceBytes : end});
    }
    wake.notify_all();
  }

  /// Drops the pieces not started yet.
  void cancel() {
    std::lock_guard<std::mutex> lock(mutex);
    pieces.clear();
    if (busy == 0)
      idle.notify_all();
  }

  /// Waits until every queued piece is done (for tests).
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [this] { return pieces.empty() && busy == 0; });
  }

private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [this] { return !pieces.empty(); });
      std::pair<uintptr_t, uintptr_t> piece = pieces.front();
      pieces.pop_front();
      ++busy;
      lock.unlock();
      bool refusedNow = !populate(piece.first, piece.second);
      lock.lock();
      if (refusedNow) {
        refused = true;
        pieces.clear();
      }
      if (--busy == 0 && pieces.empty())
        idle.notify_all();
    }
  }

  /// False when the kernel does not know MADV_POPULATE_WRITE. Other
  /// failures (a range freed meanwhile: ENOMEM; memory that cannot be
  /// populated: EFAULT) leave the pages to the copy.
  static bool populate(uintptr_t begin, uintptr_t end) {
#ifdef MADV_POPULATE_WRITE
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t b = begin & ~(page - 1);
    if (madvise((void *)b, end - b, MADV_POPULATE_WRITE) != 0 &&
        errno == EINVAL)
      return false;
#else
    (void)begin;
    (void)end;
#endif
    return true;
  }

  mutable std::mutex mutex;
  std::condition_variable wake, idle;
  std::deque<std::pair<uintptr_t, uintptr_t>> pieces;
  unsigned busy = 0;
  bool refused = false;
};

} // namespace polycuda

#endif // POLYCUDA_RUNTIME_POLYCUDA_PREFAULT_H
