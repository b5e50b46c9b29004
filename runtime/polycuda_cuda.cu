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
// same with a pool of pinned buffers created once per process (at its first
// staged copy), and several host threads that each pack (or unpack) a chunk into one of
// their buffers while the DMA of their previous chunk runs on their stream.
// The pool's streams are blocking streams: they wait for the kernels
// launched on the legacy default stream, and the kernels wait for them.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
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

constexpr int kBuffersPerWorker = 2;
constexpr size_t kBufferBytes = 4u << 20;
constexpr size_t kMinChunkBytes = 256u << 10;

/// A part of a slab that fits one staging buffer.
struct Chunk {
  size_t offset, pitch, width, rows;
};

struct Job {
  bool toDevice = true;
  char *device = nullptr;
  char *host = nullptr;
  std::vector<Chunk> chunks;
};

/// One host thread's share: its stream and buffers.
struct Worker {
  cudaStream_t stream = nullptr;
  cudaEvent_t events[kBuffersPerWorker] = {};
  char *buffers[kBuffersPerWorker] = {};
};

class StagingPool {
public:
  /// Creates streams, events and the pinned buffers; false if any fails.
  bool create(unsigned numWorkers, cudaError_t &err, const char *&what) {
    char *memory = nullptr;
    size_t total = (size_t)numWorkers * kBuffersPerWorker * kBufferBytes;
    if ((err = cudaHostAlloc((void **)&memory, total, cudaHostAllocDefault)) !=
        cudaSuccess) {
      what = "cudaHostAlloc of the staging pool";
      return false;
    }
    workers.resize(numWorkers);
    for (unsigned w = 0; w < numWorkers; ++w) {
      Worker &worker = workers[w];
      // Blocking streams: ordered with the legacy default stream's kernels.
      if ((err = cudaStreamCreate(&worker.stream)) != cudaSuccess) {
        what = "cudaStreamCreate for the staging pool";
        return false;
      }
      for (int b = 0; b < kBuffersPerWorker; ++b) {
        if ((err = cudaEventCreateWithFlags(&worker.events[b],
                                            cudaEventDisableTiming)) !=
            cudaSuccess) {
          what = "cudaEventCreate for the staging pool";
          return false;
        }
        worker.buffers[b] = memory;
        memory += kBufferBytes;
      }
    }
    for (unsigned w = 1; w < numWorkers; ++w)
      std::thread([this, w] { serve(w); }).detach();
    return true;
  }

  unsigned size() const { return (unsigned)workers.size(); }

  /// Runs `job` on every worker (the calling thread is worker 0) and
  /// returns the first CUDA error, with the operation that failed.
  cudaError_t run(const Job &job, const char *&failedOperation) {
    std::lock_guard<std::mutex> serialize(runMutex);
    {
      std::lock_guard<std::mutex> lock(mutex);
      current = &job;
      next.store(0);
      error = cudaSuccess;
      operation = nullptr;
      failed.store(false);
      pending = (unsigned)workers.size() - 1;
      ++generation;
    }
    wake.notify_all();
    work(0, job);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [this] { return pending == 0; });
    current = nullptr;
    failedOperation = operation;
    return error;
  }

private:
  void serve(unsigned w) {
    unsigned long long seen = 0;
    for (;;) {
      const Job *job;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return generation != seen; });
        seen = generation;
        job = current;
      }
      work(w, *job);
      std::lock_guard<std::mutex> lock(mutex);
      if (--pending == 0)
        done.notify_one();
    }
  }

  void fail(cudaError_t err, const char *what) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (error == cudaSuccess) {
      error = err;
      operation = what;
    }
    failed.store(true);
  }

  bool check(cudaError_t err, const char *what) {
    if (err != cudaSuccess)
      fail(err, what);
    return err == cudaSuccess;
  }

  /// Waits for the DMA of the chunk in buffer `b`; after a copy to the
  /// host, unpacks it into the user's array.
  void complete(Worker &worker, int b, const Job &job, const Chunk &c) {
    if (!check(cudaEventSynchronize(worker.events[b]),
               job.toDevice ? "cudaMemcpy2DAsync (host to device, staged)"
                            : "cudaMemcpy2DAsync (device to host, staged)"))
      return;
    if (job.toDevice)
      return;
    for (size_t r = 0; r < c.rows; ++r)
      memcpy(job.host + c.offset + r * c.pitch, worker.buffers[b] + r * c.width,
             c.width);
  }

  void work(unsigned w, const Job &job) {
    Worker &worker = workers[w];
    size_t inFlight[kBuffersPerWorker];
    int head = 0, count = 0;
    for (;;) {
      if (failed.load())
        break;
      size_t i = next.fetch_add(1);
      if (i >= job.chunks.size())
        break;
      if (count == kBuffersPerWorker) {
        complete(worker, head, job, job.chunks[inFlight[head]]);
        head = (head + 1) % kBuffersPerWorker;
        --count;
      }
      int b = (head + count) % kBuffersPerWorker;
      const Chunk &c = job.chunks[i];
      char *buffer = worker.buffers[b];
      cudaError_t err;
      if (job.toDevice) {
        for (size_t r = 0; r < c.rows; ++r)
          memcpy(buffer + r * c.width, job.host + c.offset + r * c.pitch,
                 c.width);
        err = cudaMemcpy2DAsync(job.device + c.offset, c.pitch, buffer,
                                c.width, c.width, c.rows,
                                cudaMemcpyHostToDevice, worker.stream);
      } else {
        err = cudaMemcpy2DAsync(buffer, c.width, job.device + c.offset,
                                c.pitch, c.width, c.rows,
                                cudaMemcpyDeviceToHost, worker.stream);
      }
      if (!check(err, job.toDevice ? "cudaMemcpy2DAsync (host to device, staged)"
                                   : "cudaMemcpy2DAsync (device to host, staged)"))
        break;
      if (!check(cudaEventRecord(worker.events[b], worker.stream),
                 "cudaEventRecord (staged copy)"))
        break;
      inFlight[b] = i;
      ++count;
    }
    while (count > 0) {
      complete(worker, head, job, job.chunks[inFlight[head]]);
      head = (head + 1) % kBuffersPerWorker;
      --count;
    }
  }

  std::vector<Worker> workers;
  std::mutex runMutex, mutex, errorMutex;
  std::condition_variable wake, done;
  unsigned long long generation = 0;
  const Job *current = nullptr;
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  unsigned pending = 0;
  cudaError_t error = cudaSuccess;
  const char *operation = nullptr;
};

/// Chunks of about a fraction of the copy per worker (so that every worker
/// has some), at least kMinChunkBytes, at most one buffer.
std::vector<Chunk> chunksOf(const std::vector<Slab> &slabs, unsigned workers) {
  size_t bytes = bytesOf(slabs);
  size_t target = bytes / (4 * (size_t)workers);
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

enum class PoolState { Absent, Ready, Failed };

/// The pool, created at the first staged copy (see stagedMinimumBytes).
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

/// Copies below this many bytes stay plain cudaMemcpy under auto. The pool
/// is created at the first staged copy (creating it when the program
/// loaded held the driver for 7-33 ms while short programs were already
/// inside their scop, and made most LARGE PolyBench regions slower), so a
/// staged copy must save more than that creation costs: pageable copies
/// to the host run at 1.3-2.3 GB/s and pay from tens of MB, copies to the
/// device at about 8 GB/s only from hundreds of MB.
size_t stagedMinimumBytes(bool toDevice) {
  static size_t both = [] {
    const char *v = getenv("POLYCUDA_STAGED_MIN_BYTES");
    return v && *v ? (size_t)atoll(v) : (size_t)0;
  }();
  if (both)
    return both;
  return toDevice ? (size_t)256 << 20 : (size_t)32 << 20;
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
      Job job;
      job.toDevice = toDevice;
      job.device = device;
      job.host = host;
      job.chunks = chunksOf(slabs, pool->size());
      const char *operation = nullptr;
      cudaError_t err = pool->run(job, operation);
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
    method = bytes < stagedMinimumBytes(toDevice) ? POLYCUDA_TRANSFERS_PLAIN
                                                  : POLYCUDA_TRANSFERS_STAGED;
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

/// POLYCUDA_SCOP_TIME: the start of the current scop.
static Clock::time_point scopTimeStart;

extern "C" void polycuda_cuda_begin_scop(const char *where) {
  (void)where;
  if (isEnvFlagSet("POLYCUDA_SCOP_TIME")) {
    ensureDevice(where);
    checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
    scopTimeStart = Clock::now();
  }
  if (!isProfiling())
    return;
  profile().entries.clear();
  profile().scopStart = profile().mark = Clock::now();
}

extern "C" void polycuda_cuda_end_scop(const char *where) {
  if (isEnvFlagSet("POLYCUDA_SCOP_TIME")) {
    checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
    fprintf(stderr, "polycuda scop time: %s: %.3f ms\n", nameOrUnknown(where),
            msSince(scopTimeStart));
  }
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

extern "C" int polycuda_cuda_persistent_blocks(const void *kernel,
                                               unsigned threads,
                                               long long wanted,
                                               int cooperative,
                                               const char *where) {
  const char *setting = getenv("POLYCUDA_PERSISTENT");
  if (setting && (strcmp(setting, "0") == 0 || strcmp(setting, "off") == 0))
    return 0;
  ensureDevice(where);
  if (!cooperative)
    return 1;
  int device = 0;
  checkCall(cudaGetDevice(&device), where, "cudaGetDevice");
  int supported = 0, processors = 0;
  checkCall(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch,
                                   device),
            where, "cudaDeviceGetAttribute");
  checkCall(cudaDeviceGetAttribute(&processors,
                                   cudaDevAttrMultiProcessorCount, device),
            where, "cudaDeviceGetAttribute");
  int perProcessor = 0;
  checkCall(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &perProcessor, kernel, (int)threads, 0),
            where, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!supported || perProcessor <= 0 || processors <= 0) {
    if (isVerbose())
      fprintf(stderr,
              "%s: note: persistent kernel not launched (cooperative launch "
              "%s, %d block(s) per multiprocessor): launching its kernels "
              "one by one\n",
              nameOrUnknown(where), supported ? "supported" : "unsupported",
              perProcessor);
    return 0;
  }
  long long resident = (long long)perProcessor * processors;
  return (int)std::max(1LL, std::min(wanted, resident));
}

extern "C" void polycuda_cuda_launch_persistent(const void *kernel, int blocks,
                                                unsigned threads, void **args,
                                                int cooperative,
                                                const char *name,
                                                const char *where) {
  ensureDevice(where);
  dim3 grid((unsigned)blocks), block(threads);
  cudaError_t err =
      cooperative ? cudaLaunchCooperativeKernel(kernel, grid, block, args, 0, 0)
                  : cudaLaunchKernel(kernel, grid, block, args, 0, 0);
  char operation[256];
  snprintf(operation, sizeof(operation), "launch of kernel '%s'",
           name ? name : "<unnamed>");
  checkCall(err, where, operation);
  polycuda_cuda_check_launch(name, where);
}

extern "C" void polycuda_cuda_synchronize(const char *where) {
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
}
