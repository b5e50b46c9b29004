//===- polycuda_cuda.cu - C ABI over the CUDA runtime for generated code --===//
//
// Stage: runtime, CUDA half; host code only, compiled by nvcc.
// Input: calls from printed host code, each with a scop location string.
// Output: CUDA runtime API calls; any failure prints
//   "<where>: error: <operation> failed: <message> (<cudaErrorName>)" and
//   exits 1, so the printed code never checks a return value.
// Invariants: the first call verifies that a CUDA device exists, so a machine
//   without one gets "no CUDA device available" instead of a later, obscure
//   error.
//
// Copies (see polycuda_cuda.h for the methods). cudaMemcpy from pageable
// memory runs at a fraction of the link's speed: the driver stages it
// through a small pinned buffer with one thread. The staged method does the
// same through a ring of pinned buffers created once per process (at its
// first staged copy): several host threads pack (or unpack) chunks while
// the calling thread issues the DMAs of the chunks already packed (see
// "The staging pool"). The pool's stream is a blocking stream: it waits
// for the kernels launched on the legacy default stream, and they wait
// for it.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace {

bool deviceChecked = false;

const char *nameOrUnknown(const char *where) {
  return where ? where : "<unknown location>";
}

bool isEnvFlagSet(const char *name) {
  const char *value = getenv(name);
  return value && value[0] != '\0' && strcmp(value, "0") != 0;
}

[[noreturn]] void failWith(const char *where, const char *operation,
                           cudaError_t err, const char *detail) {
  fprintf(stderr, "%s: error: %s failed: %s (%s)%s%s\n", nameOrUnknown(where),
          operation, cudaGetErrorString(err), cudaGetErrorName(err),
          detail ? "; " : "", detail ? detail : "");
  fflush(stderr);
  exit(1);
}

void checkCall(cudaError_t err, const char *where, const char *operation) {
  if (err != cudaSuccess)
    failWith(where, operation, err, nullptr);
}

// Without this, a machine with no device or no driver fails at the first
// cudaMalloc with a message that does not say what is missing.
void ensureDevice(const char *where) {
  if (deviceChecked)
    return;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    fprintf(stderr, "%s: error: no CUDA device available: %s (%s)\n",
            nameOrUnknown(where), cudaGetErrorString(err),
            cudaGetErrorName(err));
    fflush(stderr);
    exit(1);
  }
  if (count == 0) {
    fprintf(stderr,
            "%s: error: no CUDA device available: cudaGetDeviceCount "
            "found 0 devices\n",
            nameOrUnknown(where));
    fflush(stderr);
    exit(1);
  }
  deviceChecked = true;
}

} // namespace

//===- Profile (POLYCUDA_PROFILE) -----------------------------------------===//

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

bool isProfiling() {
  static const bool profiling = isEnvFlagSet("POLYCUDA_PROFILE");
  return profiling;
}

bool isVerbose() {
  static const bool verbose = isEnvFlagSet("POLYCUDA_VERBOSE");
  return verbose;
}

/// One line of a scop's profile: a copy, or all launches of one kernel, or
/// all allocations and frees.
struct ProfileEntry {
  std::string kind; ///< "copy in", "copy out", "kernel", "alloc/free"
  std::string name;
  std::string method;
  size_t bytes = 0;
  unsigned count = 0;
  double ms = 0;
};

struct Profile {
  std::vector<ProfileEntry> entries;
  Clock::time_point scopStart = Clock::now();
  /// End of the last runtime call: a kernel's time runs from here to the
  /// end of its (synchronized) launch.
  Clock::time_point mark = Clock::now();
};

void printLeftoverProfile();

Profile &profile() {
  static Profile *p = [] {
    atexit(printLeftoverProfile);
    return new Profile; // never destroyed: used until exit
  }();
  return *p;
}

ProfileEntry &aggregateEntry(const std::string &kind, const std::string &name) {
  for (ProfileEntry &e : profile().entries)
    if (e.kind == kind && e.name == name)
      return e;
  profile().entries.push_back(ProfileEntry{kind, name, "", 0, 0, 0});
  return profile().entries.back();
}

void recordKernel(const char *name) {
  ProfileEntry &e = aggregateEntry("kernel", name);
  e.count += 1;
  e.ms += msSince(profile().mark);
  profile().mark = Clock::now();
}

void recordAllocation(double ms) {
  ProfileEntry &e = aggregateEntry("alloc/free", "cudaMalloc, cudaFree");
  e.count += 1;
  e.ms += ms;
  profile().mark = Clock::now();
}

void note(const char *where, const char *message, cudaError_t err) {
  if (!isVerbose())
    return;
  fprintf(stderr, "%s: note: %s: %s (%s); copying without it\n",
          nameOrUnknown(where), message, cudaGetErrorString(err),
          cudaGetErrorName(err));
}

//===- Boxes ---------------------------------------------------------------===//

/// `rows` rows of `width` bytes, `pitch` bytes apart, starting `offset`
/// bytes into both the host and the device array (same layout).
struct Slab {
  size_t offset, pitch, width, rows;
};

/// A box as 2-D slabs: trailing dimensions that the box covers entirely are
/// merged into its rows, so a box of whole rows (or planes) is one row.
std::vector<Slab> slabsOf(size_t elementSize, int rank, const long long *extents,
                          const long long *lower, const long long *upper) {
  std::vector<Slab> slabs;
  if (rank <= 0) {
    slabs.push_back({0, elementSize, elementSize, 1});
    return slabs;
  }
  std::vector<size_t> stride(rank), count(rank);
  for (int d = 0; d < rank; ++d) {
    if (upper[d] < lower[d] || lower[d] < 0)
      return slabs;
    count[d] = (size_t)(upper[d] - lower[d] + 1);
  }
  stride[rank - 1] = elementSize;
  for (int d = rank - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * (size_t)extents[d + 1];
  int k = rank - 1;
  while (k > 0 && lower[k] == 0 && (long long)count[k] == extents[k])
    --k;
  size_t width = count[k] * stride[k];
  size_t inner = (size_t)lower[k] * stride[k];
  if (k == 0) {
    slabs.push_back({inner, width, width, 1});
    return slabs;
  }
  // One slab per index of the dimensions before k - 1.
  std::vector<size_t> index(k - 1, 0);
  for (;;) {
    size_t offset = inner + (size_t)lower[k - 1] * stride[k - 1];
    for (int d = 0; d + 1 < k; ++d)
      offset += ((size_t)lower[d] + index[d]) * stride[d];
    slabs.push_back({offset, stride[k - 1], width, count[k - 1]});
    int d = k - 2;
    while (d >= 0 && ++index[d] == count[d])
      index[d--] = 0;
    if (d < 0)
      break;
  }
  return slabs;
}

size_t bytesOf(const std::vector<Slab> &slabs) {
  size_t bytes = 0;
  for (const Slab &s : slabs)
    bytes += s.width * s.rows;
  return bytes;
}

void copySlab(char *dst, const char *src, const Slab &s, cudaMemcpyKind kind,
              const char *where) {
  if (s.rows == 1)
    checkCall(cudaMemcpy(dst + s.offset, src + s.offset, s.width, kind), where,
              kind == cudaMemcpyHostToDevice ? "cudaMemcpy (host to device)"
                                             : "cudaMemcpy (device to host)");
  else
    checkCall(cudaMemcpy2D(dst + s.offset, s.pitch, src + s.offset, s.pitch,
                           s.width, s.rows, kind),
              where,
              kind == cudaMemcpyHostToDevice ? "cudaMemcpy2D (host to device)"
                                             : "cudaMemcpy2D (device to host)");
}

void copyPlain(char *dst, const char *src, const std::vector<Slab> &slabs,
               cudaMemcpyKind kind, const char *where) {
  for (const Slab &s : slabs)
    copySlab(dst, src, s, kind, where);
}

/// Page-locks the host bytes of the slabs for the copy. Returns false (and
/// copies nothing) when registration fails.
bool copyRegistered(char *dst, const char *src, const std::vector<Slab> &slabs,
                    cudaMemcpyKind kind, char *host, const char *where) {
  size_t first = (size_t)-1, end = 0;
  for (const Slab &s : slabs) {
    first = std::min(first, s.offset);
    end = std::max(end, s.offset + (s.rows - 1) * s.pitch + s.width);
  }
  static const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t begin = ((uintptr_t)(host + first)) / page * page;
  uintptr_t stop = ((uintptr_t)(host + end) + page - 1) / page * page;
  cudaError_t err =
      cudaHostRegister((void *)begin, stop - begin, cudaHostRegisterDefault);
  if (err != cudaSuccess) {
    cudaGetLastError(); // not sticky: clear it so later checks do not see it
    note(where, "cudaHostRegister failed", err);
    return false;
  }
  copyPlain(dst, src, slabs, kind, where);
  checkCall(cudaHostUnregister((void *)begin), where, "cudaHostUnregister");
  return true;
}

//===- The staging pool ----------------------------------------------------===//
//
// One thread, the caller, makes every CUDA call of a staged copy: it issues
// the DMAs on one stream and polls their events. The pool's workers only
// pack and unpack with memcpy, so the host threads never contend for the
// driver. A copy is cut into chunks, one DMA each, and each chunk into
// pieces of about kPieceBytes, which the workers take in order, so that
// every chunk is packed by several threads at once and a few large DMAs
// (each call costs microseconds) carry the copy. The pinned memory is a
// ring of kRingBuffers buffers; chunk i of a copy uses buffer
// i % kRingBuffers.
// - To the device: workers pack the pieces of chunk i once the DMA of chunk
//   i - kRingBuffers has completed; the caller issues the chunks in order as
//   they are packed.
// - To the host: the caller issues the DMA of chunk i once chunk
//   i - kRingBuffers has been unpacked; workers unpack the pieces of the
//   chunks whose DMA has completed.
// The caller packs or unpacks too when it has nothing to issue. Idle workers
// spin for a moment before they sleep, so the copies of one scop, which
// come back to back, do not wait for threads to wake.

constexpr unsigned kRingBuffers = 8;
constexpr size_t kBufferBytes = 2u << 20;
constexpr size_t kMinChunkBytes = 256u << 10;
constexpr size_t kPieceBytes = 128u << 10;
constexpr std::chrono::microseconds kSpinBeforeSleep{2000};

/// A part of a slab that fits one staging buffer.
struct Chunk {
  size_t offset, pitch, width, rows;
};

/// Rows [row, row + rows) and bytes [x, x + width) of chunk `chunk`.
struct Piece {
  size_t chunk, row, rows, x, width;
};

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

class StagingPool {
public:
  /// Creates the stream, events and pinned ring and starts the workers;
  /// false (with the failed operation) if any CUDA call fails.
  bool create(unsigned numWorkers, cudaError_t &err, const char *&what) {
    char *memory = nullptr;
    if ((err = cudaHostAlloc((void **)&memory, kRingBuffers * kBufferBytes,
                             cudaHostAllocDefault)) != cudaSuccess) {
      what = "cudaHostAlloc of the staging pool";
      return false;
    }
    // A blocking stream: ordered with the legacy default stream's kernels.
    if ((err = cudaStreamCreate(&stream)) != cudaSuccess) {
      what = "cudaStreamCreate for the staging pool";
      return false;
    }
    for (unsigned b = 0; b < kRingBuffers; ++b) {
      if ((err = cudaEventCreateWithFlags(&events[b], cudaEventDisableTiming)) !=
          cudaSuccess) {
        what = "cudaEventCreate for the staging pool";
        return false;
      }
      buffers[b] = memory + b * kBufferBytes;
    }
    workers = numWorkers;
    // Each worker starts from this generation, so the first copy's
    // generation is new to it even if the thread starts after that copy.
    unsigned long long start = generation.load();
    for (unsigned w = 0; w < numWorkers; ++w)
      std::thread([this, start] { serve(start); }).detach();
    return true;
  }

  /// Copies `chunks` between `host` and `device`; returns the first CUDA
  /// error, with the operation that failed.
  cudaError_t run(bool toDevice, char *device, char *host,
                  const std::vector<Chunk> &chunks,
                  const std::vector<Piece> &pieces,
                  const char *&failedOperation) {
    std::lock_guard<std::mutex> serialize(runMutex);
    job.toDevice = toDevice;
    job.device = device;
    job.host = host;
    job.chunks = &chunks;
    job.pieces = &pieces;
    job.left.reset(new std::atomic<size_t>[chunks.size()]);
    for (size_t i = 0; i < chunks.size(); ++i)
      job.left[i].store(0, std::memory_order_relaxed);
    for (const Piece &p : pieces)
      job.left[p.chunk].fetch_add(1, std::memory_order_relaxed);
    next.store(0, std::memory_order_relaxed);
    limit.store(toDevice ? kRingBuffers : 0, std::memory_order_relaxed);
    failed.store(false, std::memory_order_relaxed);
    finished.store(0, std::memory_order_relaxed);
    error = cudaSuccess;
    operation = nullptr;
    generation.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(sleepMutex); }
    wake.notify_all();

    if (toDevice)
      issueToDevice();
    else
      issueToHost();

    while (finished.load(std::memory_order_acquire) < workers)
      cpuRelax();
    job.chunks = nullptr;
    job.pieces = nullptr;
    failedOperation = operation;
    return error;
  }

private:
  struct Job {
    bool toDevice = true;
    char *device = nullptr;
    char *host = nullptr;
    const std::vector<Chunk> *chunks = nullptr;
    const std::vector<Piece> *pieces = nullptr;
    /// Per chunk: its pieces not yet packed (to the device) or unpacked (to
    /// the host).
    std::unique_ptr<std::atomic<size_t>[]> left;
  };

  const char *dmaName() const {
    return job.toDevice ? "cudaMemcpyAsync (host to device, staged)"
                        : "cudaMemcpyAsync (device to host, staged)";
  }

  /// Records a failure of the caller's CUDA call; workers stop.
  void fail(cudaError_t err, const char *what) {
    error = err;
    operation = what;
    failed.store(true, std::memory_order_release);
  }

  void dma(size_t i) {
    const Chunk &c = (*job.chunks)[i];
    char *buffer = buffers[i % kRingBuffers];
    cudaError_t err;
    if (job.toDevice)
      err = c.rows == 1 ? cudaMemcpyAsync(job.device + c.offset, buffer,
                                          c.width, cudaMemcpyHostToDevice,
                                          stream)
                        : cudaMemcpy2DAsync(job.device + c.offset, c.pitch,
                                            buffer, c.width, c.width, c.rows,
                                            cudaMemcpyHostToDevice, stream);
    else
      err = c.rows == 1 ? cudaMemcpyAsync(buffer, job.device + c.offset,
                                          c.width, cudaMemcpyDeviceToHost,
                                          stream)
                        : cudaMemcpy2DAsync(buffer, c.width,
                                            job.device + c.offset, c.pitch,
                                            c.width, c.rows,
                                            cudaMemcpyDeviceToHost, stream);
    if (err != cudaSuccess)
      return fail(err, dmaName());
    if ((err = cudaEventRecord(events[i % kRingBuffers], stream)) !=
        cudaSuccess)
      fail(err, "cudaEventRecord (staged copy)");
  }

  /// True when the DMA of chunk `i` has completed (false on an error).
  bool dmaCompleted(size_t i) {
    cudaError_t err = cudaEventQuery(events[i % kRingBuffers]);
    if (err == cudaSuccess)
      return true;
    if (err != cudaErrorNotReady)
      fail(err, dmaName());
    return false;
  }

  bool moved(size_t chunk) const {
    return job.left[chunk].load(std::memory_order_acquire) == 0;
  }

  /// Packs (to the device) or unpacks (to the host) piece `i`.
  void move(size_t i) {
    const Piece &p = (*job.pieces)[i];
    const Chunk &c = (*job.chunks)[p.chunk];
    char *buffer = buffers[p.chunk % kRingBuffers] + p.x;
    char *user = job.host + c.offset + p.x;
    for (size_t r = p.row; r < p.row + p.rows; ++r) {
      if (job.toDevice)
        memcpy(buffer + r * c.width, user + r * c.pitch, p.width);
      else
        memcpy(user + r * c.pitch, buffer + r * c.width, p.width);
    }
    job.left[p.chunk].fetch_sub(1, std::memory_order_release);
  }

  /// Takes the next piece for the caller if it may be moved now.
  bool takeAllowed(size_t &i) {
    const std::vector<Piece> &pieces = *job.pieces;
    i = next.load(std::memory_order_relaxed);
    return i < pieces.size() &&
           pieces[i].chunk < limit.load(std::memory_order_acquire) &&
           next.compare_exchange_strong(i, i + 1);
  }

  void issueToDevice() {
    size_t n = job.chunks->size(), issued = 0, completed = 0;
    while (completed < n && !failed.load(std::memory_order_relaxed)) {
      bool progress = false;
      if (issued < n && moved(issued)) {
        dma(issued++);
        progress = true;
      }
      if (completed < issued && dmaCompleted(completed)) {
        ++completed;
        limit.store(completed + kRingBuffers, std::memory_order_release);
        progress = true;
      }
      size_t i;
      if (!progress && issued == completed && takeAllowed(i)) {
        move(i);
        progress = true;
      }
      if (!progress)
        cpuRelax();
    }
  }

  void issueToHost() {
    size_t n = job.chunks->size(), issued = 0, completed = 0, unpacked = 0;
    while (unpacked < n && !failed.load(std::memory_order_relaxed)) {
      bool progress = false;
      if (issued < n && issued < unpacked + kRingBuffers) {
        dma(issued++);
        progress = true;
      }
      if (completed < issued && dmaCompleted(completed)) {
        ++completed;
        limit.store(completed, std::memory_order_release);
        progress = true;
      }
      while (unpacked < n && moved(unpacked)) {
        ++unpacked;
        progress = true;
      }
      size_t i;
      if (!progress && takeAllowed(i)) {
        move(i);
        progress = true;
      }
      if (!progress)
        cpuRelax();
    }
  }

  /// A worker's share of the current job.
  void work() {
    const std::vector<Piece> &pieces = *job.pieces;
    for (;;) {
      size_t i = next.fetch_add(1);
      if (i >= pieces.size())
        return;
      while (limit.load(std::memory_order_acquire) <= pieces[i].chunk)
        if (failed.load(std::memory_order_acquire))
          return;
        else
          cpuRelax();
      move(i);
    }
  }

  void serve(unsigned long long seen) {
    for (;;) {
      auto idleSince = std::chrono::steady_clock::now();
      unsigned spins = 0;
      while (generation.load(std::memory_order_acquire) == seen) {
        if (++spins % 256 != 0) {
          cpuRelax();
          continue;
        }
        if (std::chrono::steady_clock::now() - idleSince < kSpinBeforeSleep)
          continue;
        std::unique_lock<std::mutex> lock(sleepMutex);
        wake.wait(lock, [&] {
          return generation.load(std::memory_order_acquire) != seen;
        });
      }
      seen = generation.load(std::memory_order_acquire);
      work();
      finished.fetch_add(1, std::memory_order_release);
    }
  }

  unsigned workers = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t events[kRingBuffers] = {};
  char *buffers[kRingBuffers] = {};
  std::mutex runMutex, sleepMutex;
  std::condition_variable wake;
  Job job;
  std::atomic<unsigned long long> generation{0};
  /// `next`: the next piece to take. The pieces of chunks below `limit` may
  /// be moved: to the device, those whose buffer is free; to the host, those
  /// whose DMA has completed.
  std::atomic<size_t> next{0}, limit{0};
  std::atomic<unsigned> finished{0};
  std::atomic<bool> failed{false};
  cudaError_t error = cudaSuccess;
  const char *operation = nullptr;
};

/// Chunks of about a quarter of the copy (so that the first DMA starts
/// early; more, smaller DMAs measured slower on the H100), at least
/// kMinChunkBytes, at most one buffer.
std::vector<Chunk> chunksOf(const std::vector<Slab> &slabs) {
  size_t target = bytesOf(slabs) / 4;
  target = std::max(kMinChunkBytes, std::min(kBufferBytes, target));
  std::vector<Chunk> chunks;
  for (const Slab &s : slabs) {
    if (s.width >= target) {
      for (size_t r = 0; r < s.rows; ++r)
        for (size_t x = 0; x < s.width; x += target)
          chunks.push_back({s.offset + r * s.pitch + x, s.pitch,
                            std::min(target, s.width - x), 1});
    } else {
      size_t rowsPerChunk = std::max<size_t>(1, target / s.width);
      for (size_t r = 0; r < s.rows; r += rowsPerChunk)
        chunks.push_back({s.offset + r * s.pitch, s.pitch, s.width,
                          std::min(rowsPerChunk, s.rows - r)});
    }
  }
  return chunks;
}

/// The chunks' pieces, in chunk order: byte ranges of a one-row chunk, row
/// ranges of the others, each about kPieceBytes.
std::vector<Piece> piecesOf(const std::vector<Chunk> &chunks) {
  std::vector<Piece> pieces;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk &c = chunks[i];
    if (c.rows == 1) {
      for (size_t x = 0; x < c.width; x += kPieceBytes)
        pieces.push_back({i, 0, 1, x, std::min(kPieceBytes, c.width - x)});
      continue;
    }
    size_t rowsPerPiece = std::max<size_t>(1, kPieceBytes / c.width);
    for (size_t r = 0; r < c.rows; r += rowsPerPiece)
      pieces.push_back({i, r, std::min(rowsPerPiece, c.rows - r), 0, c.width});
  }
  return pieces;
}

enum class PoolState { Absent, Ready, Failed };

/// The pool, created at the first staged copy (see autoStages).
struct PoolHolder {
  std::thread init;
  std::once_flag joined;
  PoolState state = PoolState::Absent;
  StagingPool *pool = nullptr;
  cudaError_t error = cudaSuccess;
  const char *what = nullptr;
};

PoolHolder &poolHolder() {
  static PoolHolder *holder = new PoolHolder; // lives until exit
  return *holder;
}

unsigned defaultWorkers() {
  if (const char *v = getenv("POLYCUDA_TRANSFER_THREADS"))
    if (atoi(v) > 0)
      return (unsigned)atoi(v);
  unsigned cores = std::thread::hardware_concurrency();
  return std::max(2u, std::min(8u, cores / 2));
}

void createPool() {
  PoolHolder &h = poolHolder();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    h.state = PoolState::Failed;
    return;
  }
  StagingPool *pool = new StagingPool;
  if (!pool->create(defaultWorkers(), h.error, h.what)) {
    cudaGetLastError();
    h.state = PoolState::Failed; // the partial pool is leaked on purpose:
    return;                      // its threads were not started
  }
  h.pool = pool;
  h.state = PoolState::Ready;
}

void joinPoolInit() {
  PoolHolder &h = poolHolder();
  std::call_once(h.joined, [&h] {
    if (h.init.joinable())
      h.init.join();
  });
}

/// The pool when it exists, else null (after a note under verbose).
StagingPool *stagingPool(const char *where) {
  PoolHolder &h = poolHolder();
  joinPoolInit();
  if (h.state == PoolState::Absent)
    createPool();
  if (h.state == PoolState::Ready)
    return h.pool;
  if (h.what) {
    note(where, h.what, h.error);
    h.what = nullptr; // once
  }
  return nullptr;
}

int methodFromEnvironment(int method) {
  const char *v = getenv("POLYCUDA_TRANSFERS");
  if (!v || !*v)
    return method;
  if (!strcmp(v, "plain"))
    return POLYCUDA_TRANSFERS_PLAIN;
  if (!strcmp(v, "staged"))
    return POLYCUDA_TRANSFERS_STAGED;
  if (!strcmp(v, "registered"))
    return POLYCUDA_TRANSFERS_REGISTERED;
  if (!strcmp(v, "auto"))
    return POLYCUDA_TRANSFERS_AUTO;
  return method;
}

/// Under auto, whether a copy of `bytes` is staged. Creating the pool
/// costs about 6-11 ms on the H100 host (its pinned ring, stream and
/// threads), more than staging saves on one copy of tens of MB: pageable
/// copies run at about 11 GB/s to the device and 9 GB/s to the host,
/// staged ones at 20-50 GB/s from 4 MiB up. So auto creates the pool for a
/// copy of at least 32 MiB to the host or 64 MiB to the device, or once
/// this process has copied 128 MiB plainly (it moves enough data to repay
/// the pool); once the pool exists, every copy from 4 MiB up is staged.
/// POLYCUDA_STAGED_MIN_BYTES replaces all of this with one threshold.
bool autoStages(size_t bytes, bool toDevice) {
  static const size_t fixed = [] {
    const char *v = getenv("POLYCUDA_STAGED_MIN_BYTES");
    return v && *v ? (size_t)atoll(v) : (size_t)0;
  }();
  static size_t plainBytes = 0;
  if (fixed)
    return bytes >= fixed;
  constexpr size_t MiB = (size_t)1 << 20;
  bool stage = bytes >= 4 * MiB &&
               (poolHolder().state == PoolState::Ready ||
                bytes >= (toDevice ? 64 : 32) * MiB || plainBytes >= 128 * MiB);
  if (!stage)
    plainBytes += bytes;
  return stage;
}

const char *methodName(int method) {
  switch (method) {
  case POLYCUDA_TRANSFERS_PLAIN:
    return "plain";
  case POLYCUDA_TRANSFERS_STAGED:
    return "staged";
  case POLYCUDA_TRANSFERS_REGISTERED:
    return "registered";
  default:
    return "auto";
  }
}

/// Copies the slabs with `method` (not auto) and returns the method that
/// did: plain when the pool or a registration is not to be had.
int copyWith(int method, bool toDevice, char *device, char *host,
             const std::vector<Slab> &slabs, const char *where) {
  cudaMemcpyKind kind =
      toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  char *dst = toDevice ? device : host;
  const char *src = toDevice ? host : device;
  if (method == POLYCUDA_TRANSFERS_STAGED) {
    if (StagingPool *pool = stagingPool(where)) {
      std::vector<Chunk> chunks = chunksOf(slabs);
      std::vector<Piece> pieces = piecesOf(chunks);
      const char *operation = nullptr;
      cudaError_t err =
          pool->run(toDevice, device, host, chunks, pieces, operation);
      if (err != cudaSuccess)
        failWith(where, operation, err, nullptr);
      return method;
    }
    method = POLYCUDA_TRANSFERS_REGISTERED;
  }
  if (method == POLYCUDA_TRANSFERS_REGISTERED &&
      copyRegistered(dst, src, slabs, kind, host, where))
    return method;
  copyPlain(dst, src, slabs, kind, where);
  return POLYCUDA_TRANSFERS_PLAIN;
}

void copyBox(bool toDevice, char *device, char *host, size_t elementSize,
             int rank, const long long *extents, const long long *lower,
             const long long *upper, int method, const char *array,
             const char *where) {
  ensureDevice(where);
  std::vector<Slab> slabs = slabsOf(elementSize, rank, extents, lower, upper);
  size_t bytes = bytesOf(slabs);
  Clock::time_point start = Clock::now();
  method = methodFromEnvironment(method);
  if (method == POLYCUDA_TRANSFERS_AUTO)
    method = autoStages(bytes, toDevice) ? POLYCUDA_TRANSFERS_STAGED
                                         : POLYCUDA_TRANSFERS_PLAIN;
  int used = POLYCUDA_TRANSFERS_PLAIN;
  if (bytes > 0)
    used = copyWith(method, toDevice, device, host, slabs, where);
  if (!isProfiling())
    return;
  // cudaMemcpy from pageable memory may return before its DMA ends.
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  ProfileEntry e;
  e.kind = toDevice ? "copy in" : "copy out";
  e.name = array ? array : "";
  e.method = methodName(used);
  e.bytes = bytes;
  e.count = 1;
  e.ms = msSince(start);
  profile().entries.push_back(e);
  profile().mark = Clock::now();
}

/// Prints and clears the profile (see polycuda_cuda_end_scop).
void printProfile(const char *where) {
  double total = msSince(profile().scopStart);
  double copies = 0, kernels = 0;
  size_t in = 0, out = 0;
  for (const ProfileEntry &e : profile().entries) {
    if (e.kind == "kernel")
      kernels += e.ms;
    else if (e.kind != "alloc/free")
      copies += e.ms;
    if (e.kind == "copy in")
      in += e.bytes;
    if (e.kind == "copy out")
      out += e.bytes;
  }
  fprintf(stderr,
          "polycuda profile: scop %s: %.3f ms: copies %.3f ms (%zu bytes in, "
          "%zu out), kernels %.3f ms, other %.3f ms\n",
          nameOrUnknown(where), total, copies, in, out, kernels,
          total - copies - kernels);
  for (const ProfileEntry &e : profile().entries) {
    if (e.kind == "kernel" || e.kind == "alloc/free")
      fprintf(stderr, "  %-10s %-24s %u call(s) %34.3f ms\n", e.kind.c_str(),
              e.name.c_str(), e.count, e.ms);
    else
      fprintf(stderr, "  %-10s %-24s %14zu bytes %-10s %8.3f ms %8.2f GB/s\n",
              e.kind.c_str(), e.name.c_str(), e.bytes, e.method.c_str(), e.ms,
              e.ms > 0 ? e.bytes / e.ms / 1e6 : 0.0);
  }
  profile().entries.clear();
  profile().mark = Clock::now();
}

/// Programs printed before begin/end marks (or that exit inside a scop)
/// still get their profile, at exit; no CUDA call here: every profiled
/// operation was synchronized when it was recorded.
void printLeftoverProfile() {
  if (!profile().entries.empty())
    printProfile("(no scop marks)");
}

} // namespace

extern "C" void polycuda_cuda_copy_box_to_device(
    void *device, const void *host, size_t element_size, int rank,
    const long long *extents, const long long *lower, const long long *upper,
    int method, const char *array, const char *where) {
  copyBox(true, (char *)device, (char *)host, element_size, rank, extents,
          lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_box_to_host(
    void *host, const void *device, size_t element_size, int rank,
    const long long *extents, const long long *lower, const long long *upper,
    int method, const char *array, const char *where) {
  copyBox(false, (char *)device, (char *)host, element_size, rank, extents,
          lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_begin_scop(const char *where) {
  (void)where;
  if (!isProfiling())
    return;
  profile().entries.clear();
  profile().scopStart = profile().mark = Clock::now();
}

extern "C" void polycuda_cuda_end_scop(const char *where) {
  if (!isProfiling())
    return;
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  printProfile(where);
}

extern "C" void *polycuda_cuda_alloc(size_t bytes, const char *where) {
  char detail[64];
  snprintf(detail, sizeof(detail), "requested %zu bytes", bytes);
  // Checked before the device so that tests of the diagnostic also run on
  // machines without a GPU.
  if (isEnvFlagSet("POLYCUDA_FAIL_ALLOC"))
    failWith(where, "cudaMalloc", cudaErrorMemoryAllocation, detail);
  ensureDevice(where);
  void *ptr = nullptr;
  Clock::time_point start = Clock::now();
  cudaError_t err = cudaMalloc(&ptr, bytes == 0 ? 1 : bytes);
  if (err != cudaSuccess)
    failWith(where, "cudaMalloc", err, detail);
  if (isProfiling())
    recordAllocation(msSince(start));
  return ptr;
}

extern "C" void polycuda_cuda_free(void *ptr, const char *where) {
  if (!ptr)
    return;
  ensureDevice(where);
  Clock::time_point start = Clock::now();
  checkCall(cudaFree(ptr), where, "cudaFree");
  if (isProfiling())
    recordAllocation(msSince(start));
}

extern "C" void polycuda_cuda_copy_to_device(void *dst, const void *src,
                                             size_t bytes, const char *where) {
  long long upper = (long long)bytes - 1, lower = 0, extent = (long long)bytes;
  polycuda_cuda_copy_box_to_device(dst, src, 1, 1, &extent, &lower, &upper,
                                   POLYCUDA_TRANSFERS_AUTO, nullptr, where);
}

extern "C" void polycuda_cuda_copy_to_host(void *dst, const void *src,
                                           size_t bytes, const char *where) {
  long long upper = (long long)bytes - 1, lower = 0, extent = (long long)bytes;
  polycuda_cuda_copy_box_to_host(dst, src, 1, 1, &extent, &lower, &upper,
                                 POLYCUDA_TRANSFERS_AUTO, nullptr, where);
}

/// Launches checked so far; printed at exit when POLYCUDA_LAUNCH_STATS is
/// set (the benchmark tables report launches per program).
static unsigned long long launchCount = 0;

static void printLaunchStats(void) {
  fprintf(stderr, "polycuda: %llu kernel launches\n", launchCount);
}

extern "C" void polycuda_cuda_check_launch(const char *kernel,
                                           const char *where) {
  char operation[256];
  if (launchCount++ == 0 && isEnvFlagSet("POLYCUDA_LAUNCH_STATS"))
    atexit(printLaunchStats);
  const char *name = kernel ? kernel : "<unnamed>";
  ensureDevice(where);
  snprintf(operation, sizeof(operation), "launch of kernel '%s'", name);
  checkCall(cudaGetLastError(), where, operation);
  bool profile = isProfiling();
  if (!profile && !isEnvFlagSet("POLYCUDA_SYNC_LAUNCHES"))
    return;
  snprintf(operation, sizeof(operation), "execution of kernel '%s'", name);
  checkCall(cudaDeviceSynchronize(), where, operation);
  if (profile)
    recordKernel(name);
}

extern "C" void polycuda_cuda_synchronize(const char *where) {
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
}
