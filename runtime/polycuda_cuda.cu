//===- polycuda_cuda.cu - C ABI over the CUDA runtime for generated code --===//
//
// Stage: runtime, CUDA half; host code only, compiled by nvcc.
// Input: calls from printed host code, each with a scop location string.
// Output: CUDA runtime API calls; any failure prints
//   "<where>: error: <operation> failed: <message> (<cudaErrorName>)" and
//   exits 1, so the printed code never checks a return value.
// Invariants: the first call verifies that a CUDA device exists.
//
// A thread of the runtime prepares, while the program starts, what the
// scops would otherwise wait for: the staging ring (polycuda_staging.h) and
// the pinned slots page-locked, the kernels loaded, device memory reserved
// (its first CUDA call also creates the context). The ring's stream and the
// legacy default stream (kernels, plain copies, allocations) wait for each
// other only through events ("Ordering copies and kernels"). The
// measurements behind each mechanism: docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"
#include "polycuda_staging.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

using polycuda::staging::Chunk;
using polycuda::staging::Piece;
using polycuda::staging::Slab;
using polycuda::staging::StagingPool;
using Clock = std::chrono::steady_clock;

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

/// A machine without a device or driver gets a message that says so, not a
/// later, obscure error.
void ensureDevice(const char *where) {
  if (deviceChecked)
    return;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess)
    fprintf(stderr, "%s: error: no CUDA device available: %s (%s)\n",
            nameOrUnknown(where), cudaGetErrorString(err),
            cudaGetErrorName(err));
  else if (count == 0)
    fprintf(stderr,
            "%s: error: no CUDA device available: cudaGetDeviceCount "
            "found 0 devices\n",
            nameOrUnknown(where));
  if (err != cudaSuccess || count == 0) {
    fflush(stderr);
    exit(1);
  }
  deviceChecked = true;
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

//===- Profile (POLYCUDA_PROFILE) -----------------------------------------===//

bool isProfiling() {
  static const bool profiling = isEnvFlagSet("POLYCUDA_PROFILE");
  return profiling;
}

/// A line of a scop's profile: a copy (`bytes` counted), or all launches
/// of one kernel, or all allocations and frees.
struct ProfileEntry {
  std::string kind, name, method; ///< kind: "copy in", "kernel", ...
  size_t bytes;
  unsigned count;
  double ms;
};

struct Profile {
  std::vector<ProfileEntry> entries;
  /// `mark`: the end of the last runtime call, where a kernel's time starts.
  Clock::time_point scopStart = Clock::now(), mark = Clock::now();
};

void printLeftoverProfile();

Profile &profile() {
  static Profile *p = [] {
    atexit(printLeftoverProfile);
    return new Profile; // used until exit
  }();
  return *p;
}

/// A copy gets a line of its own; kernels and allocations add to theirs.
void record(const char *kind, const char *name, const char *method,
            size_t bytes, double ms) {
  std::vector<ProfileEntry> &entries = profile().entries;
  bool copy = kind[0] == 'c';
  auto it = std::find_if(entries.begin(), entries.end(), [&](auto &e) {
    return !copy && e.kind == kind && e.name == name;
  });
  if (it == entries.end())
    it = entries.insert(it, {kind, name ? name : "", method, bytes, 0, 0});
  it->count += 1, it->ms += ms;
  profile().mark = Clock::now();
}

void printProfile(const char *where) {
  double total = msSince(profile().scopStart), copies = 0, kernels = 0;
  size_t in = 0, out = 0;
  for (const ProfileEntry &e : profile().entries) {
    kernels += e.kind == "kernel" ? e.ms : 0;
    copies += e.kind[0] == 'c' ? e.ms : 0;
    in += e.kind == "copy in" ? e.bytes : 0;
    out += e.kind == "copy out" ? e.bytes : 0;
  }
  fprintf(stderr,
          "polycuda profile: scop %s: %.3f ms: copies %.3f ms (%zu bytes in, "
          "%zu out), kernels %.3f ms, other %.3f ms\n",
          nameOrUnknown(where), total, copies, in, out, kernels,
          total - copies - kernels);
  for (const ProfileEntry &e : profile().entries)
    if (e.kind[0] != 'c')
      fprintf(stderr, "  %-10s %-24s %u call(s) %34.3f ms\n", e.kind.c_str(),
              e.name.c_str(), e.count, e.ms);
    else
      fprintf(stderr, "  %-10s %-24s %14zu bytes %-10s %8.3f ms %8.2f GB/s\n",
              e.kind.c_str(), e.name.c_str(), e.bytes, e.method.c_str(), e.ms,
              e.ms > 0 ? e.bytes / e.ms / 1e6 : 0.0);
  profile().entries.clear();
  profile().mark = Clock::now();
}

/// Programs that exit inside a scop still get their profile (every entry
/// was synchronized when recorded: no CUDA call here).
void printLeftoverProfile() {
  if (!profile().entries.empty())
    printProfile("(no scop marks)");
}

//===- The staging pool, prepared when the program starts -----------------===//

enum class PoolState { Absent, Preparing, Ready, Failed };

struct PoolHolder {
  std::thread init;
  std::once_flag joined;
  std::atomic<PoolState> state{PoolState::Absent};
  StagingPool *pool = nullptr;
  int device = -1; ///< the device current when the pool was attached
};

PoolHolder &poolHolder() {
  static PoolHolder *holder = new PoolHolder; // used until exit
  return *holder;
}

void joinPoolInit() {
  PoolHolder &h = poolHolder();
  std::call_once(h.joined, [&h] {
    if (h.init.joinable())
      h.init.join();
  });
}

void joinPoolInitAtExit() { joinPoolInit(); }

/// The program's exit waits for the thread that prepares the pool: the CUDA
/// runtime's exit handlers tear the context down, and a CUDA call of that
/// thread meanwhile crashed short programs (trisolv, reduction_branches at
/// MEDIUM: 2 of 40 runs each on the H100). atexit runs handlers in reverse
/// order, so the join is registered after the CUDA runtime's first call
/// returned and again once the context exists (either thread; it joins
/// once): one of them runs before the CUDA runtime's handlers.
void registerExitJoin() { atexit(joinPoolInitAtExit); }

int methodFromEnvironment(int method) {
  const char *v = getenv("POLYCUDA_TRANSFERS");
  if (!v || !*v)
    return method;
  if (!strcmp(v, "plain"))
    return POLYCUDA_TRANSFERS_PLAIN;
  if (!strcmp(v, "staged"))
    return POLYCUDA_TRANSFERS_STAGED;
  return strcmp(v, "auto") ? method : POLYCUDA_TRANSFERS_AUTO;
}

void attachSlots();
void loadKernels();
void reserveDeviceMemory();

/// The ring touched and the workers started, then the ring page-locked, its
/// stream, events and the slots created; then the preloaded kernels loaded
/// and device memory reserved.
void preparePool() {
  PoolHolder &h = poolHolder();
  auto *pool = new StagingPool; // leaked on failure: workers wait forever
  int count = 0;
  if (!pool->prepare(polycuda::staging::workerCount(
          std::thread::hardware_concurrency())) ||
      cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    h.state.store(PoolState::Failed);
    return;
  }
  registerExitJoin();
  if (!pool->attach() || cudaGetDevice(&h.device) != cudaSuccess) {
    cudaGetLastError();
    h.state.store(PoolState::Failed);
    return;
  }
  registerExitJoin(); // the context exists
  h.pool = pool;
  attachSlots();
  h.state.store(PoolState::Ready);
  loadKernels();
  reserveDeviceMemory();
}

/// Prepares the pool on a thread of its own when the program starts, while
/// the program initializes its data (2-3 ms of host work, then 0.5-0.7 ms
/// to page-lock the ring, then the context), not inside a scop; copies
/// meanwhile are plain under auto, and a staged one waits for it.
/// POLYCUDA_TRANSFERS=plain: no pool.
struct PreparePoolAtStart {
  PreparePoolAtStart() {
    if (methodFromEnvironment(POLYCUDA_TRANSFERS_AUTO) ==
        POLYCUDA_TRANSFERS_PLAIN)
      return;
    poolHolder().state.store(PoolState::Preparing);
    poolHolder().init = std::thread(preparePool);
  }
} preparePoolAtStart;

bool poolReady() {
  return poolHolder().state.load(std::memory_order_acquire) ==
         PoolState::Ready;
}

/// Whether the calling thread's device is the pool's (its stream and
/// events belong to that device).
bool onPoolDevice() {
  int device = -1;
  if (cudaGetDevice(&device) == cudaSuccess && device == poolHolder().device)
    return true;
  cudaGetLastError();
  return false;
}

/// The pool (waiting while it is prepared), or null if none on this device.
StagingPool *stagingPool() {
  if (!poolReady())
    joinPoolInit();
  return poolReady() && onPoolDevice() ? poolHolder().pool : nullptr;
}

/// Whether a copy staged since the current scop began.
bool stagedSinceScopBegan = false;

//===- Small copies through pinned slots ----------------------------------===//
//
// Under auto, a copy of at most kSlotBytes goes through one of kSlots slots
// of pinned memory instead of pageable cudaMemcpy (which waits for earlier
// kernels, and to the host for its bytes): to the device, packed into the
// slot and queued on the default stream; to the host, queued into the slot
// and, inside a scop (not profiled), unpacked when the scop ends, after its
// one wait (the printed code reads none of its arrays before). Every call
// that waits for the device or might let the host see those bytes first
// unpacks the waiting slots, in the order issued.

constexpr size_t kSlotBytes = (size_t)256 << 10;
constexpr unsigned kSlots = 16;

struct WaitingOut { ///< a copy to the host queued into a slot
  unsigned slot;
  char *host;
  std::vector<Slab> slabs;
};

struct Slots {
  char *memory = nullptr; ///< kSlots * kSlotBytes, page-locked; null: none
  cudaEvent_t done[kSlots] = {};
  bool queued[kSlots] = {}; ///< whether done[slot] was recorded
  unsigned next = 0;
  std::vector<WaitingOut> waiting; ///< not unpacked yet
};

Slots &slots() {
  static Slots *s = new Slots; // used until exit
  return *s;
}

/// On the pool's thread; without slots, small copies stay plain.
void attachSlots() {
  Slots &s = slots();
  size_t bytes = kSlots * kSlotBytes;
  char *memory = (char *)aligned_alloc(4096, bytes);
  if (!memory)
    return;
  memset(memory, 0, bytes); // touched, as the ring
  cudaError_t err = cudaHostRegister(memory, bytes, cudaHostRegisterDefault);
  for (unsigned i = 0; i < kSlots && err == cudaSuccess; ++i)
    err = cudaEventCreateWithFlags(&s.done[i], cudaEventDisableTiming);
  if (err != cudaSuccess)
    cudaGetLastError(); // the memory is leaked, as a failed pool's
  else
    s.memory = memory;
}

bool usesSlot(size_t bytes) {
  return bytes <= kSlotBytes && slots().memory && poolReady() &&
         onPoolDevice();
}

void unpackWaiting(const char *where) {
  Slots &s = slots();
  for (const WaitingOut &w : s.waiting) {
    checkCall(cudaEventSynchronize(s.done[w.slot]), where,
              "cudaEventSynchronize");
    const char *from = s.memory + w.slot * kSlotBytes;
    for (const Slab &slab : w.slabs)
      for (size_t r = 0; r < slab.rows; ++r, from += slab.width)
        memcpy(w.host + slab.offset + r * slab.pitch, from, slab.width);
  }
  s.waiting.clear();
}

/// Copies the slabs through the next slot; a copy to the host is unpacked
/// at once unless `wait` lets it wait for the end of the scop.
void copyThroughSlot(bool toDevice, char *device, char *host,
                     const std::vector<Slab> &slabs, bool wait,
                     const char *where) {
  Slots &s = slots();
  unsigned slot = s.next;
  s.next = (s.next + 1) % kSlots;
  for (const WaitingOut &w : s.waiting)
    if (w.slot == slot) {
      unpackWaiting(where);
      break;
    }
  if (s.queued[slot])
    checkCall(cudaEventSynchronize(s.done[slot]), where,
              "cudaEventSynchronize");
  char *at = s.memory + slot * kSlotBytes;
  cudaMemcpyKind kind =
      toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  for (const Slab &slab : slabs) {
    if (toDevice)
      for (size_t r = 0; r < slab.rows; ++r)
        memcpy(at + r * slab.width, host + slab.offset + r * slab.pitch,
               slab.width);
    char *dst = toDevice ? device + slab.offset : at;
    const char *src = toDevice ? at : device + slab.offset;
    if (slab.rows == 1)
      checkCall(cudaMemcpyAsync(dst, src, slab.width, kind, 0), where,
                "cudaMemcpyAsync (pinned slot)");
    else
      checkCall(cudaMemcpy2DAsync(dst, toDevice ? slab.pitch : slab.width,
                                  src, toDevice ? slab.width : slab.pitch,
                                  slab.width, slab.rows, kind, 0),
                where, "cudaMemcpy2DAsync (pinned slot)");
    at += slab.rows * slab.width;
  }
  checkCall(cudaEventRecord(s.done[slot], 0), where, "cudaEventRecord");
  s.queued[slot] = true;
  if (toDevice)
    return;
  s.waiting.push_back(WaitingOut{slot, host, slabs});
  if (!wait)
    unpackWaiting(where);
}

//===- Kernels loaded when the program starts -----------------------------===//
//
// With lazy module loading (CUDA's default) a kernel is loaded at its first
// launch; the printed code registers its kernels, and the pool's thread
// loads them once the context exists (not CUDA_MODULE_LOADING=EAGER, which
// would load a library's modules too).

struct Preload {
  std::mutex mutex;
  std::vector<const void *> kernels;
  bool done = false; ///< the thread has taken the list
};

Preload &preloadList() {
  static Preload *p = new Preload; // used until exit
  return *p;
}

void loadKernels() {
  Preload &p = preloadList();
  std::vector<const void *> kernels;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.done = true;
    kernels.swap(p.kernels);
  }
  cudaFuncAttributes attributes;
  for (const void *kernel : kernels)
    if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess)
      cudaGetLastError(); // its launch reports what is wrong
}

//===- Device memory ------------------------------------------------------===//
//
// cudaMalloc took 0.4-0.5 ms for a scop's arrays at LARGE on the H200, and
// cudaFree waits for the device. The pool's thread therefore reserves device
// memory when the program starts: a pool of the runtime's own (the default
// pool untouched), grown once by 256 MiB (at most 1/16 of the device) and
// keeping that much. Blocks come from it stream-ordered on the default
// stream in microseconds once it is ready, from cudaMalloc before (scops
// that allocated from a pool while it grew were up to 3.7x slower:
// bench/results/transfers). Freed blocks are kept for the next allocation of
// about their size (up to a quarter of the device's memory; a scop called
// again allocates nothing); they go back before a failed allocation is
// tried again, and at exit. polycuda_cuda_end_scop waits for the device, so
// the work queued on a freed block ends before its next user's.

struct DeviceMemory {
  std::atomic<bool> ready{false}; ///< `pool` reserved
  cudaMemPool_t pool = nullptr;
  int device = -1; ///< the pool's
  std::unordered_map<void *, size_t> sizes; ///< blocks handed out
  std::unordered_set<void *> pooled;        ///< blocks from `pool`
  std::multimap<size_t, void *> kept;       ///< freed blocks, by size
  size_t keptBytes = 0;
};

DeviceMemory &deviceMemory() {
  static DeviceMemory *memory = new DeviceMemory; // used until exit
  return *memory;
}

/// On the pool's thread.
void reserveDeviceMemory() {
  size_t free = 0, total = 0;
  int device = -1, supported = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess ||
      cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported,
                             device) != cudaSuccess ||
      !supported) {
    cudaGetLastError();
    return;
  }
  uint64_t bytes = std::min((size_t)256 << 20, total / 16);
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  cudaStream_t stream = nullptr;
  void *block = nullptr;
  cudaError_t err = cudaMemPoolCreate(&pool, &props);
  if (err == cudaSuccess)
    err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                  &bytes);
  if (err == cudaSuccess)
    err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (err == cudaSuccess)
    err = cudaMallocFromPoolAsync(&block, bytes, pool, stream);
  if (err == cudaSuccess)
    err = cudaFreeAsync(block, stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(stream);
  if (stream)
    cudaStreamDestroy(stream);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return; // a pool created is left alone: nothing is taken from it
  }
  DeviceMemory &m = deviceMemory();
  m.pool = pool;
  m.device = device;
  m.ready.store(true, std::memory_order_release);
}

/// At most a quarter of the device's memory is kept, so that other code of
/// the program (a library's own cudaMalloc) still finds memory.
size_t keepLimit() {
  static const size_t limit = [] {
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess)
      return total / 4;
    cudaGetLastError();
    return (size_t)0;
  }();
  return limit;
}

void poolWaitsForDefault(const char *where);

/// A new block: from the reserved pool once it is ready on this device,
/// else from cudaMalloc.
cudaError_t allocate(void **ptr, size_t bytes, const char *where) {
  DeviceMemory &m = deviceMemory();
  int device = -1;
  if (!m.ready.load(std::memory_order_acquire) ||
      cudaGetDevice(&device) != cudaSuccess || device != m.device)
    return cudaMalloc(ptr, bytes);
  cudaError_t err = cudaMallocFromPoolAsync(ptr, bytes, m.pool, 0);
  if (err != cudaSuccess)
    return err;
  m.pooled.insert(*ptr);
  if (poolReady())
    poolWaitsForDefault(where); // the ring's stream uses the block after
  return cudaSuccess;
}

cudaError_t release(void *ptr) {
  return deviceMemory().pooled.erase(ptr) ? cudaFreeAsync(ptr, 0)
                                          : cudaFree(ptr);
}

void releaseKept() {
  DeviceMemory &m = deviceMemory();
  for (const auto &[bytes, ptr] : m.kept)
    release(ptr); // at exit or before a retry: errors change nothing
  m.kept.clear();
  m.keptBytes = 0;
}

//===- Ordering copies and kernels ----------------------------------------===//
//
// - The default stream waits for the DMAs of a staged copy to the device.
//   Inside a scop the DMAs wait only for the work issued before the scop
//   began (and before its allocations), so that they overlap the kernels
//   the scop launched before the copy: the printed code copies an array in
//   before the first kernel that uses it, and no earlier kernel touches its
//   device memory. Outside a scop they wait for all earlier work.
// - The DMAs of a staged copy to the host wait for the work issued before
//   polycuda_cuda_mark_written named its array in this scop, if it did,
//   else for all earlier work.
// Code compiled with --default-stream per-thread is not ordered with them.

struct StreamOrder {
  bool inScop = false;
  bool waitsForScopStart = false; ///< the pool's stream does already
  cudaEvent_t copiedIn = nullptr, now = nullptr;
  /// Per device array, the event after its last writer (mark_written).
  std::unordered_map<const void *, cudaEvent_t> written;
  std::vector<cudaEvent_t> spare;
};

StreamOrder &streamOrder() {
  static StreamOrder *order = new StreamOrder; // used until exit
  return *order;
}

cudaEvent_t newEvent(const char *where) {
  StreamOrder &o = streamOrder();
  cudaEvent_t event;
  if (o.spare.empty())
    checkCall(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), where,
              "cudaEventCreate");
  else
    event = o.spare.back(), o.spare.pop_back();
  return event;
}

/// The pool's stream waits for the work issued so far on the default one.
void poolWaitsForDefault(const char *where) {
  StreamOrder &o = streamOrder();
  if (!o.now)
    o.now = newEvent(where);
  checkCall(cudaEventRecord(o.now, 0), where, "cudaEventRecord");
  checkCall(cudaStreamWaitEvent(poolHolder().pool->dmaStream(), o.now, 0),
            where, "cudaStreamWaitEvent");
}

void orderBeforeStaged(bool toDevice, const void *device, const char *where) {
  StreamOrder &o = streamOrder();
  if (toDevice) {
    if (!o.waitsForScopStart)
      poolWaitsForDefault(where);
    o.waitsForScopStart = o.inScop; // outside a scop: each copy waits
    return;
  }
  auto it = o.written.find(device);
  if (it == o.written.end())
    return poolWaitsForDefault(where);
  checkCall(cudaStreamWaitEvent(poolHolder().pool->dmaStream(), it->second, 0),
            where, "cudaStreamWaitEvent");
  o.spare.push_back(it->second);
  o.written.erase(it);
}

void orderAfterStagedIn(const char *where) {
  StreamOrder &o = streamOrder();
  if (!o.copiedIn)
    o.copiedIn = newEvent(where);
  checkCall(cudaEventRecord(o.copiedIn, poolHolder().pool->dmaStream()),
            where, "cudaEventRecord");
  checkCall(cudaStreamWaitEvent(0, o.copiedIn, 0), where,
            "cudaStreamWaitEvent");
}

//===- Copies -------------------------------------------------------------===//

void copyPlain(bool toDevice, char *device, char *host,
               const std::vector<Slab> &slabs, const char *where) {
  cudaMemcpyKind kind =
      toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  char *dst = toDevice ? device : host;
  const char *src = toDevice ? host : device;
  for (const Slab &s : slabs)
    if (s.rows == 1)
      checkCall(cudaMemcpy(dst + s.offset, src + s.offset, s.width, kind),
                where, toDevice ? "cudaMemcpy (host to device)"
                                : "cudaMemcpy (device to host)");
    else
      checkCall(cudaMemcpy2D(dst + s.offset, s.pitch, src + s.offset,
                             s.pitch, s.width, s.rows, kind),
                where, toDevice ? "cudaMemcpy2D (host to device)"
                                : "cudaMemcpy2D (device to host)");
}

/// Copies through the ring; false (nothing copied) without a pool.
bool copyStaged(bool toDevice, char *device, char *host,
                const std::vector<Slab> &slabs, const char *where) {
  StagingPool *pool = stagingPool();
  if (!pool)
    return false;
  stagedSinceScopBegan = true;
  std::vector<Chunk> chunks = polycuda::staging::chunksOf(slabs);
  std::vector<Piece> pieces = polycuda::staging::piecesOf(chunks);
  const char *operation = nullptr;
  orderBeforeStaged(toDevice, device, where);
  cudaError_t err =
      pool->run(toDevice, device, host, chunks, pieces, operation);
  if (err != cudaSuccess)
    failWith(where, operation, err, nullptr);
  if (toDevice)
    orderAfterStagedIn(where);
  return true;
}

/// Copies `count` boxes (box b's bounds at lower + b * rank) as one copy.
/// Under auto: through a slot up to kSlotBytes, staged from 1 MiB once the
/// pool is ready (plain while it is prepared, rather than wait; staged beat
/// plain from 1 MiB in both directions), else plain.
void copyBox(bool toDevice, void *device, const void *host,
             size_t elementSize, int rank, const long long *extents,
             int count, const long long *lower, const long long *upper,
             int method, const char *array, const char *where) {
  ensureDevice(where);
  std::vector<Slab> slabs;
  size_t step = rank > 0 ? (size_t)rank : 0;
  for (int b = 0; b < count; ++b) {
    std::vector<Slab> box = polycuda::staging::slabsOf(
        elementSize, rank, extents, lower + b * step, upper + b * step);
    slabs.insert(slabs.end(), box.begin(), box.end());
  }
  size_t bytes = polycuda::staging::bytesOf(slabs);
  Clock::time_point start = Clock::now();
  method = methodFromEnvironment(method);
  bool slot = method == POLYCUDA_TRANSFERS_AUTO && bytes > 0 &&
              usesSlot(bytes);
  if (method == POLYCUDA_TRANSFERS_AUTO)
    method = bytes >= ((size_t)1 << 20) && poolReady()
                 ? POLYCUDA_TRANSFERS_STAGED
                 : POLYCUDA_TRANSFERS_PLAIN;
  // Any copy but one out through a slot first unpacks the copies waiting
  // in slots, which it might overwrite or read.
  if (!(slot && !toDevice) && !slots().waiting.empty())
    unpackWaiting(where);
  char *d = (char *)device, *h = (char *)host;
  const char *used = "plain";
  if (slot)
    used = "slot", copyThroughSlot(toDevice, d, h, slabs,
                                   streamOrder().inScop && !isProfiling(),
                                   where);
  else if (bytes > 0 && method == POLYCUDA_TRANSFERS_STAGED &&
           copyStaged(toDevice, d, h, slabs, where))
    used = "staged";
  else if (bytes > 0)
    copyPlain(toDevice, d, h, slabs, where);
  if (!isProfiling())
    return;
  // cudaMemcpy from pageable memory may return before its DMA ends.
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  record(toDevice ? "copy in" : "copy out", array, used, bytes,
         msSince(start));
}

} // namespace

//===- Entry points -------------------------------------------------------===//

extern "C" void *polycuda_cuda_alloc(size_t bytes, const char *where) {
  char detail[64];
  snprintf(detail, sizeof(detail), "requested %zu bytes", bytes);
  // Before the device, so that tests of the diagnostic run without a GPU.
  if (isEnvFlagSet("POLYCUDA_FAIL_ALLOC"))
    failWith(where, "cudaMalloc", cudaErrorMemoryAllocation, detail);
  ensureDevice(where);
  bytes = bytes ? bytes : 1;
  Clock::time_point start = Clock::now();
  DeviceMemory &m = deviceMemory();
  void *ptr = nullptr;
  auto it = m.kept.lower_bound(bytes); // a kept block of at most twice that
  if (it != m.kept.end() && it->first / 2 <= bytes) {
    ptr = it->second;
    m.sizes[ptr] = it->first;
    m.keptBytes -= it->first;
    m.kept.erase(it);
  } else {
    cudaError_t err = allocate(&ptr, bytes, where);
    bool ready = m.ready.load(std::memory_order_acquire);
    if (err == cudaErrorMemoryAllocation && (!m.kept.empty() || ready)) {
      cudaGetLastError();
      releaseKept(); // and the pool's free memory, then once more
      if (ready && (cudaDeviceSynchronize() != cudaSuccess ||
                    cudaMemPoolTrimTo(m.pool, 0) != cudaSuccess))
        cudaGetLastError(); // the retry reports what is wrong
      err = allocate(&ptr, bytes, where);
    }
    if (err != cudaSuccess)
      failWith(where, "cudaMalloc", err, detail);
    m.sizes[ptr] = bytes;
  }
  static bool contextSeen = false; // see registerExitJoin
  if (!contextSeen)
    contextSeen = true, registerExitJoin();
  if (isProfiling())
    record("alloc/free", "cudaMalloc, cudaFree", "", 0, msSince(start));
  return ptr;
}

extern "C" void polycuda_cuda_free(void *ptr, const char *where) {
  if (!ptr)
    return;
  ensureDevice(where);
  Clock::time_point start = Clock::now();
  DeviceMemory &m = deviceMemory();
  auto it = m.sizes.find(ptr);
  size_t bytes = it == m.sizes.end() ? 0 : it->second; // 0: not ours
  if (bytes > 0)
    m.sizes.erase(it);
  if (bytes > 0 && m.keptBytes + bytes <= keepLimit()) {
    m.kept.emplace(bytes, ptr);
    m.keptBytes += bytes;
    static bool exitHandler = false; // after the CUDA runtime's: runs first
    if (!exitHandler)
      exitHandler = true, atexit(releaseKept);
  } else {
    unpackWaiting(where); // a copy out of the block may still be queued
    checkCall(release(ptr), where, "cudaFree");
  }
  if (isProfiling())
    record("alloc/free", "cudaMalloc, cudaFree", "", 0, msSince(start));
}

extern "C" void polycuda_cuda_copy_box_to_device(
    void *device, const void *host, size_t element_size, int rank,
    const long long *extents, const long long *lower, const long long *upper,
    int method, const char *array, const char *where) {
  copyBox(true, device, host, element_size, rank, extents, 1, lower, upper,
          method, array, where);
}

extern "C" void polycuda_cuda_copy_boxes_to_device(
    void *device, const void *host, size_t element_size, int rank,
    const long long *extents, int count, const long long *lower,
    const long long *upper, int method, const char *array, const char *where) {
  copyBox(true, device, host, element_size, rank, extents, count, lower,
          upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_box_to_host(
    void *host, const void *device, size_t element_size, int rank,
    const long long *extents, const long long *lower, const long long *upper,
    int method, const char *array, const char *where) {
  copyBox(false, (void *)device, host, element_size, rank, extents, 1, lower,
          upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_boxes_to_host(
    void *host, const void *device, size_t element_size, int rank,
    const long long *extents, int count, const long long *lower,
    const long long *upper, int method, const char *array, const char *where) {
  copyBox(false, (void *)device, host, element_size, rank, extents, count,
          lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_to_device(void *dst, const void *src,
                                             size_t bytes, const char *where) {
  long long upper = (long long)bytes - 1, lower = 0, extent = (long long)bytes;
  copyBox(true, dst, src, 1, 1, &extent, 1, &lower, &upper,
          POLYCUDA_TRANSFERS_AUTO, nullptr, where);
}

extern "C" void polycuda_cuda_copy_to_host(void *dst, const void *src,
                                           size_t bytes, const char *where) {
  long long upper = (long long)bytes - 1, lower = 0, extent = (long long)bytes;
  copyBox(false, (void *)src, dst, 1, 1, &extent, 1, &lower, &upper,
          POLYCUDA_TRANSFERS_AUTO, nullptr, where);
}

extern "C" void polycuda_cuda_copy_to_constant(const void *symbol,
                                               const void *src, size_t bytes,
                                               const char *where) {
  if (bytes == 0)
    return;
  ensureDevice(where);
  checkCall(cudaMemcpyToSymbolAsync(symbol, src, bytes, 0,
                                    cudaMemcpyDeviceToDevice, 0),
            where, "cudaMemcpyToSymbolAsync");
}

/// POLYCUDA_SCOP_TIME: the start of the current scop.
static Clock::time_point scopTimeStart;

extern "C" void polycuda_cuda_begin_scop(const char *where) {
  // The workers, asleep after 2 ms idle, spin again for the scop's first
  // copy: in the first scop, and in one after a scop that staged.
  static bool began = false;
  bool ready = poolReady();
  if ((!began || stagedSinceScopBegan) && ready)
    poolHolder().pool->warm();
  began = true;
  stagedSinceScopBegan = false;
  StreamOrder &o = streamOrder();
  o.inScop = true;
  o.waitsForScopStart = ready && onPoolDevice();
  if (o.waitsForScopStart)
    poolWaitsForDefault(where);
  if (isEnvFlagSet("POLYCUDA_SCOP_TIME")) {
    ensureDevice(where);
    checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
    scopTimeStart = Clock::now();
  }
  if (isProfiling()) {
    profile().entries.clear();
    profile().scopStart = profile().mark = Clock::now();
  }
}

extern "C" void polycuda_cuda_mark_written(const void *device,
                                           const char *where) {
  StreamOrder &o = streamOrder();
  if (!o.inScop || !deviceChecked || !poolReady())
    return; // only a staged copy uses the mark
  cudaEvent_t &event = o.written[device];
  if (!event)
    event = newEvent(where);
  checkCall(cudaEventRecord(event, 0), where, "cudaEventRecord");
}

extern "C" void polycuda_cuda_end_scop(const char *where) {
  // A scop that used no device makes no CUDA call.
  if (deviceChecked)
    checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  unpackWaiting(where);
  StreamOrder &o = streamOrder();
  for (const auto &[device, event] : o.written)
    o.spare.push_back(event); // marks of arrays copied out plain, or not
  o.written.clear();
  o.inScop = o.waitsForScopStart = false;
  if (isEnvFlagSet("POLYCUDA_SCOP_TIME"))
    fprintf(stderr, "polycuda scop time: %s: %.3f ms\n", nameOrUnknown(where),
            msSince(scopTimeStart));
  if (isProfiling())
    printProfile(where);
}

extern "C" void polycuda_cuda_synchronize(const char *where) {
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  unpackWaiting(where);
}

/// Launches checked so far; printed at exit under POLYCUDA_LAUNCH_STATS.
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
  if (!isProfiling() && !isEnvFlagSet("POLYCUDA_SYNC_LAUNCHES"))
    return;
  snprintf(operation, sizeof(operation), "execution of kernel '%s'", name);
  checkCall(cudaDeviceSynchronize(), where, operation);
  if (isProfiling())
    record("kernel", name, "", 0, msSince(profile().mark));
}

extern "C" int polycuda_cuda_persistent_blocks(const void *kernel,
                                               unsigned threads,
                                               long long wanted,
                                               int cooperative,
                                               const char *where) {
  const char *setting = getenv("POLYCUDA_PERSISTENT");
  if (setting && (!strcmp(setting, "0") || !strcmp(setting, "off")))
    return 0;
  ensureDevice(where);
  if (!cooperative)
    return 1;
  int device = 0, supported = 0, processors = 0, perProcessor = 0;
  checkCall(cudaGetDevice(&device), where, "cudaGetDevice");
  checkCall(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch,
                                   device),
            where, "cudaDeviceGetAttribute");
  checkCall(cudaDeviceGetAttribute(&processors,
                                   cudaDevAttrMultiProcessorCount, device),
            where, "cudaDeviceGetAttribute");
  checkCall(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &perProcessor, kernel, (int)threads, 0),
            where, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!supported || perProcessor <= 0 || processors <= 0)
    return 0;
  // With phases larger than one block per multiprocessor, separate launches
  // were faster on the H100 (gramschmidt 1.8x, fdtd_2d 1.3x at LARGE).
  if (wanted > processors && !(setting && !strcmp(setting, "always")))
    return 0;
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

extern "C" void polycuda_cuda_preload(const void *const *kernels,
                                      int count) {
  Preload &p = preloadList();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (!p.done && kernels && count > 0)
    p.kernels.insert(p.kernels.end(), kernels, kernels + count);
}
