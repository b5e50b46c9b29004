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
// same through a ring of pinned buffers prepared and page-locked once per
// process, on a thread of its own while the program starts (see
// PreparePoolAtStart): several host threads pack (or unpack) chunks while
// the calling thread issues the DMAs of the chunks already packed (see
// "The staging pool"). The pool's stream does not wait for the legacy
// default stream (kernels, plain copies) nor it for the pool's: events order
// them (see "Ordering copies and kernels"), so that a copy in overlaps the
// kernels launched before it and a copy out those launched after its
// array's last writer.
//
//===----------------------------------------------------------------------===//

#include "polycuda_cuda.h"
#include "polycuda_staging.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
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

//===- Boxes and the staging pool (polycuda_staging.h) --------------------===//

using polycuda::staging::Chunk;
using polycuda::staging::Piece;
using polycuda::staging::Slab;
using polycuda::staging::StagingPool;
using polycuda::staging::bytesOf;
using polycuda::staging::chunksOf;
using polycuda::staging::piecesOf;
using polycuda::staging::slabsOf;

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

enum class PoolState { Absent, Preparing, Ready, Failed };

/// The pool: prepared (ring touched, workers started) and attached (ring
/// page-locked, stream and events created) on a thread of its own when the
/// program starts (see PreparePoolAtStart).
struct PoolHolder {
  std::thread init;
  std::once_flag joined;
  std::atomic<PoolState> state{PoolState::Absent};
  StagingPool *pool = nullptr;
  int device = -1; ///< the device current when the pool was attached
};

PoolHolder &poolHolder() {
  static PoolHolder *holder = new PoolHolder; // lives until exit
  return *holder;
}

unsigned defaultWorkers() {
  return polycuda::staging::workerCount(std::thread::hardware_concurrency());
}

void attachPool();
void attachSlots();
void loadKernels();
void reserveDeviceMemory();

/// Host memory and threads, then the pool's CUDA calls.
void preparePool() {
  PoolHolder &h = poolHolder();
  StagingPool *pool = new StagingPool;
  if (!pool->prepare(defaultWorkers())) {
    h.state.store(PoolState::Failed, std::memory_order_release);
    return;
  }
  h.pool = pool;
  attachPool(); // Ready or Failed
}

int methodFromEnvironment(int method) {
  const char *v = getenv("POLYCUDA_TRANSFERS");
  if (!v || !*v)
    return method;
  if (!strcmp(v, "plain"))
    return POLYCUDA_TRANSFERS_PLAIN;
  if (!strcmp(v, "staged"))
    return POLYCUDA_TRANSFERS_STAGED;
  if (!strcmp(v, "auto"))
    return POLYCUDA_TRANSFERS_AUTO;
  return method;
}

/// POLYCUDA_TRANSFERS=plain: no pool.
bool stagingRuledOut() {
  return methodFromEnvironment(POLYCUDA_TRANSFERS_AUTO) ==
         POLYCUDA_TRANSFERS_PLAIN;
}

/// Starts preparing the pool when the program starts, on a thread of its
/// own, so that its cost is paid while the program initializes its data,
/// not inside a scop: 16 MiB of memory touched and threads started (2-3
/// ms), then the ring page-locked (0.5-0.7 ms on the H100 host, which a
/// scop's first staged copy paid before) and the stream created. That
/// thread's first CUDA call also creates the device's primary context,
/// which the program's first scop would otherwise wait for. The state
/// stays Preparing until the thread is done: copies meanwhile are plain
/// (autoStages); a copy that must stage waits for it (joinPoolInit).
struct PreparePoolAtStart {
  PreparePoolAtStart() {
    if (stagingRuledOut())
      return;
    PoolHolder &h = poolHolder();
    h.state.store(PoolState::Preparing, std::memory_order_relaxed);
    h.init = std::thread(preparePool);
  }
} preparePoolAtStart;

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
/// thread meanwhile crashed short programs (trisolv and reduction_branches
/// at MEDIUM: 2 of 40 runs each on the H100). atexit runs handlers in the
/// reverse order of their registration, so the join is registered after the
/// CUDA runtime's first call returned and again once the context exists
/// (on either thread; it joins once): one of them runs before the CUDA
/// runtime's handlers.
void registerExitJoin() { atexit(joinPoolInitAtExit); }

/// Attaches the pool, then loads the registered kernels and reserves device
/// memory for the scops' arrays (reserveDeviceMemory).
void attachPool() {
  PoolHolder &h = poolHolder();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    h.state.store(PoolState::Failed);
    return;
  }
  registerExitJoin();
  if (!h.pool->attach()) {
    cudaGetLastError();
    h.state.store(PoolState::Failed); // the pool is leaked on purpose: its
    return;                           // workers wait for a job forever
  }
  registerExitJoin(); // the context exists
  if (cudaGetDevice(&h.device) != cudaSuccess) {
    cudaGetLastError();
    h.state.store(PoolState::Failed);
    return;
  }
  attachSlots();
  h.state.store(PoolState::Ready);
  loadKernels();
  reserveDeviceMemory();
}

/// Whether the calling thread's device is the pool's (its stream and
/// events belong to that device).
bool onPoolDevice(const char *where) {
  (void)where;
  int device = -1;
  if (cudaGetDevice(&device) == cudaSuccess && device == poolHolder().device)
    return true;
  cudaGetLastError();
  return false;
}

/// The pool when it exists, else null.
StagingPool *stagingPool(const char *where) {
  PoolHolder &h = poolHolder();
  // Once the pool is ready, the thread that prepared it may still be
  // reserving device memory: no need to wait for that.
  if (h.state.load(std::memory_order_acquire) != PoolState::Ready)
    joinPoolInit();
  if (h.state.load() == PoolState::Absent)
    preparePool();
  if (h.state.load() == PoolState::Ready)
    return onPoolDevice(where) ? h.pool : nullptr;
  return nullptr;
}

/// Whether a copy staged since the current scop began (see
/// polycuda_cuda_begin_scop).
bool stagedSinceScopBegan = false;

//===- Small copies through pinned slots ----------------------------------===//
//
// cudaMemcpy from pageable memory waits for the device work issued before
// it (a copy in that follows a kernel waits for the kernel, and the host
// launches nothing meanwhile) and takes 10-20 us for 16 KB on the H200
// host; a copy to the host returns only when its bytes are there. Under
// auto, a copy of at most kSlotBytes goes through one of kSlots slots of
// pinned memory page-locked with the pool (attachSlots) instead:
// - to the device: the host packs its rows into the slot and queues the
//   DMA on the default stream, in order with the kernels, without waiting
//   for them; the slot's event says when it may be packed again;
// - to the host: the DMA is queued into the slot; inside a scop (and not
//   under POLYCUDA_PROFILE) the slot is unpacked into the host array when
//   the scop ends, after its one wait for the device, so that the scop's
//   small copies out share that wait (the printed code copies out at the
//   scop's end and reads nothing of its arrays before it ends); outside a
//   scop at once. Every runtime call that waits for the device or might
//   let the host see those bytes (a copy to the host that does not use a
//   slot, a block really freed, polycuda_cuda_synchronize) unpacks the
//   waiting ones first, in the order they were issued.
// On the H200 host, eight copies of 16 KB through pinned memory with one
// wait took 2.3x (to the device) and 3.3x (to the host) less time than
// pageable cudaMemcpy one at a time (bench/transfers/small_copies.cu; the
// records, region times included, are in the git history of bench/results
// at 9c73b08).

constexpr size_t kSlotBytes = (size_t)256 << 10;
constexpr unsigned kSlots = 16;

/// A copy to the host whose DMA into a slot is queued and whose bytes are
/// not in the host array yet.
struct WaitingOut {
  unsigned slot;
  char *host;
  std::vector<Slab> slabs;
};

struct Slots {
  char *memory = nullptr; ///< kSlots * kSlotBytes, page-locked; null: none
  cudaEvent_t done[kSlots] = {};
  bool queued[kSlots] = {}; ///< whether done[slot] was recorded
  unsigned next = 0;
  std::vector<WaitingOut> waiting;
};

Slots &slots() {
  static Slots *s = new Slots; // used until exit
  return *s;
}

/// Page-locks the slots, on the thread that attaches the pool; without them
/// (a failure) small copies stay plain.
void attachSlots() {
  Slots &s = slots();
  size_t bytes = kSlots * kSlotBytes;
  char *memory = (char *)aligned_alloc(4096, bytes);
  if (!memory)
    return;
  memset(memory, 0, bytes); // touched, as the pool's ring
  cudaError_t err = cudaHostRegister(memory, bytes, cudaHostRegisterDefault);
  for (unsigned i = 0; i < kSlots && err == cudaSuccess; ++i)
    err = cudaEventCreateWithFlags(&s.done[i], cudaEventDisableTiming);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return; // the memory is leaked on purpose, as a failed pool's
  }
  s.memory = memory;
}

/// Whether a copy of `bytes` under auto goes through a slot.
bool usesSlot(size_t bytes, const char *where) {
  return bytes <= kSlotBytes && slots().memory &&
         poolHolder().state.load(std::memory_order_acquire) ==
             PoolState::Ready &&
         onPoolDevice(where);
}

/// Unpacks every copy to the host waiting in a slot, in the order issued.
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

/// Copies the slabs (at most kSlotBytes) through the next slot; a copy to
/// the host is unpacked at once unless `wait` lets it wait for the end of
/// the scop.
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
  for (const Slab &slab : slabs) {
    if (toDevice)
      for (size_t r = 0; r < slab.rows; ++r)
        memcpy(at + r * slab.width, host + slab.offset + r * slab.pitch,
               slab.width);
    cudaMemcpyKind kind =
        toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    char *dst = toDevice ? device + slab.offset : at;
    const char *src = toDevice ? at : device + slab.offset;
    size_t dstPitch = toDevice ? slab.pitch : slab.width;
    size_t srcPitch = toDevice ? slab.width : slab.pitch;
    if (slab.rows == 1)
      checkCall(cudaMemcpyAsync(dst, src, slab.width, kind, 0), where,
                "cudaMemcpyAsync (pinned slot)");
    else
      checkCall(cudaMemcpy2DAsync(dst, dstPitch, src, srcPitch, slab.width,
                                  slab.rows, kind, 0),
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
// With lazy module loading (CUDA's default since 12.2), a kernel is loaded at
// its first launch: a program's first kernel took 0.23-0.28 ms to launch on
// the H200 against 0.06-0.07 ms loaded ahead. CUDA_MODULE_LOADING=EAGER
// would load every module of the program, a library's too; instead the
// printed code registers its own kernels (polycuda_cuda_preload) and the
// thread that prepares the pool loads them once the context exists: the 14
// copy-bound PolyBench kernels ran 1.08x faster in region time (geometric
// mean, 1.02-1.26x each; git history of bench/results at 9c73b08).

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
  for (const void *kernel : kernels) {
    cudaFuncAttributes attributes;
    if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess)
      cudaGetLastError(); // its launch reports what is wrong
  }
}

//===- Device memory reserved when the program starts ---------------------===//
//
// cudaMalloc took 0.4-0.5 ms for a PolyBench scop's arrays at LARGE on the
// H200 (0.15 ms for one of 32 MB; bench/transfers/malloc_bench.cu),
// a fifth to a third of the region of bicg, mvt or gemver once its copies
// were fast. The thread that prepares the staging pool when the program
// starts therefore creates a pool of device memory (cudaMemPoolCreate, the
// program's own default pool untouched) and grows it by 256 MiB (at most
// 1/16 of the device) with one allocation it frees again; the pool keeps that much
// (cudaMemPoolAttrReleaseThreshold), and polycuda_cuda_alloc takes blocks
// from it with cudaMallocFromPoolAsync on the default stream in a few
// microseconds. Growing it took about 10 ms for 256 MiB, while the
// program initializes its data; an allocation before it is done uses
// cudaMalloc, as do all when the pool is not prepared at start
// (POLYCUDA_TRANSFERS=plain). A block from the pool is returned with
// cudaFreeAsync.

struct ReservedMemory {
  std::atomic<bool> ready{false};
  cudaMemPool_t pool = nullptr;
  int device = -1;
};

ReservedMemory &reservedMemory() {
  static ReservedMemory *r = new ReservedMemory; // used until exit
  return *r;
}

size_t reserveBytes() {
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return std::min((size_t)256 << 20, total / 16);
}

void reserveDeviceMemory() {
  size_t bytes = reserveBytes();
  int device = -1, supported = 0;
  if (bytes == 0 || cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported,
                             device) != cudaSuccess ||
      !supported) {
    cudaGetLastError();
    return;
  }
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  cudaStream_t stream = nullptr;
  void *block = nullptr;
  uint64_t keep = bytes;
  cudaError_t err = cudaMemPoolCreate(&pool, &props);
  if (err == cudaSuccess)
    err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                  &keep);
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
  ReservedMemory &r = reservedMemory();
  r.pool = pool;
  r.device = device;
  r.ready.store(true, std::memory_order_release);
}

//===- Ordering copies and kernels ----------------------------------------===//
//
// The pool's stream is non-blocking: it and the legacy default stream (the
// printed kernels, plain copies) wait for each other only
// through these events.
// - After the DMAs of a staged copy to the device, the default stream waits
//   for them: later kernels and copies see the bytes. Inside a scop the DMAs
//   wait only for the device work issued before the scop began (an event
//   polycuda_cuda_begin_scop records), so they overlap the kernels the scop
//   launched before the copy: the printed code copies an array in before the
//   first kernel that uses it, and none of the scop's kernels before touches
//   its device memory (allocated when the scop starts; a block kept from an
//   earlier scop was freed at that scop's end, which waited for the
//   device). Outside a scop they wait for all device work issued before.
// - The DMAs of a staged copy to the host wait for the device work issued
//   before polycuda_cuda_mark_written named its device array in this scop,
//   if it did (the printed code does so after the array's last writer, and
//   copies it out once every kernel is launched, so that the copy overlaps
//   the kernels after the mark), else for all device work issued before
//   the copy.
// Code compiled with --default-stream per-thread is not ordered with them.

struct StreamOrder {
  bool inScop = false;
  /// The pool's stream waits for the work issued before the scop began.
  bool waitsForScopStart = false;
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
  if (!o.spare.empty()) {
    cudaEvent_t event = o.spare.back();
    o.spare.pop_back();
    return event;
  }
  cudaEvent_t event;
  checkCall(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), where,
            "cudaEventCreate");
  return event;
}

/// The pool's stream waits for the work issued so far on the default one.
void poolWaitsForDefault(StagingPool *pool, const char *where) {
  StreamOrder &o = streamOrder();
  if (!o.now)
    o.now = newEvent(where);
  checkCall(cudaEventRecord(o.now, 0), where, "cudaEventRecord");
  checkCall(cudaStreamWaitEvent(pool->dmaStream(), o.now, 0), where,
            "cudaStreamWaitEvent");
}

/// Orders a staged copy's DMAs, about to be issued, after the device work
/// they must follow (see above).
void orderBeforeStaged(StagingPool *pool, bool toDevice, const void *device,
                       const char *where) {
  StreamOrder &o = streamOrder();
  if (toDevice) {
    if (!o.waitsForScopStart)
      poolWaitsForDefault(pool, where);
    o.waitsForScopStart = o.inScop; // outside a scop: each copy waits
    return;
  }
  auto it = o.written.find(device);
  if (it == o.written.end())
    return poolWaitsForDefault(pool, where);
  checkCall(cudaStreamWaitEvent(pool->dmaStream(), it->second, 0), where,
            "cudaStreamWaitEvent");
  o.spare.push_back(it->second);
  o.written.erase(it);
}

/// After the DMAs of a staged copy to the device are issued: the default
/// stream waits for them.
void orderAfterStagedIn(StagingPool *pool, const char *where) {
  StreamOrder &o = streamOrder();
  if (!o.copiedIn)
    o.copiedIn = newEvent(where);
  checkCall(cudaEventRecord(o.copiedIn, pool->dmaStream()), where,
            "cudaEventRecord");
  checkCall(cudaStreamWaitEvent(0, o.copiedIn, 0), where,
            "cudaStreamWaitEvent");
}

/// Under auto, whether a copy of `bytes` is staged. Once the pool is
/// attached, staged copies beat plain ones from 1 MiB up in both
/// directions (on the H100 host, 13-14 GB/s against 8-10 at 1 MiB, 40-50
/// against 7-13 from 8 MiB). While the pool is still being prepared (a
/// scop at the very start of a program), copies stay plain rather than
/// wait.
bool autoStages(size_t bytes) {
  return bytes >= ((size_t)1 << 20) &&
         poolHolder().state.load(std::memory_order_acquire) ==
             PoolState::Ready;
}

const char *methodName(int method) {
  switch (method) {
  case POLYCUDA_TRANSFERS_PLAIN:
    return "plain";
  case POLYCUDA_TRANSFERS_STAGED:
    return "staged";
  default:
    return "auto";
  }
}

/// Copies the slabs with `method` (not auto) and returns the method that
/// did: plain when the pool is not to be had.
int copyWith(int method, bool toDevice, char *device, char *host,
             const std::vector<Slab> &slabs, const char *where) {
  cudaMemcpyKind kind =
      toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  char *dst = toDevice ? device : host;
  const char *src = toDevice ? host : device;
  if (method == POLYCUDA_TRANSFERS_STAGED) {
    if (StagingPool *pool = stagingPool(where)) {
      stagedSinceScopBegan = true;
      std::vector<Chunk> chunks = chunksOf(slabs);
      std::vector<Piece> pieces = piecesOf(chunks);
      const char *operation = nullptr;
      orderBeforeStaged(pool, toDevice, device, where);
      cudaError_t err =
          pool->run(toDevice, device, host, chunks, pieces, operation);
      if (err != cudaSuccess)
        failWith(where, operation, err, nullptr);
      if (toDevice)
        orderAfterStagedIn(pool, where);
      return method;
    }
  }
  copyPlain(dst, src, slabs, kind, where);
  return POLYCUDA_TRANSFERS_PLAIN;
}

/// Copies `count` boxes (box b's bounds at lower + b * rank) as one copy.
void copyBox(bool toDevice, char *device, char *host, size_t elementSize,
             int rank, const long long *extents, int count,
             const long long *lower, const long long *upper, int method,
             const char *array, const char *where) {
  ensureDevice(where);
  std::vector<Slab> slabs;
  size_t step = rank > 0 ? (size_t)rank : 0;
  for (int b = 0; b < count; ++b) {
    std::vector<Slab> box = slabsOf(elementSize, rank, extents,
                                    lower + b * step, upper + b * step);
    slabs.insert(slabs.end(), box.begin(), box.end());
  }
  size_t bytes = bytesOf(slabs);
  Clock::time_point start = Clock::now();
  method = methodFromEnvironment(method);
  bool autoChosen = method == POLYCUDA_TRANSFERS_AUTO;
  if (autoChosen)
    method = autoStages(bytes) ? POLYCUDA_TRANSFERS_STAGED
                 : POLYCUDA_TRANSFERS_PLAIN;
  // Under auto, small copies go through a slot (see "Small copies through
  // pinned slots"); any other copy first unpacks the copies to the host
  // waiting in slots, which it might overwrite or read.
  bool slot = bytes > 0 && method == POLYCUDA_TRANSFERS_PLAIN &&
              autoChosen && usesSlot(bytes, where);
  if (!(slot && !toDevice) && !slots().waiting.empty())
    unpackWaiting(where);
  int used = POLYCUDA_TRANSFERS_PLAIN;
  if (slot)
    copyThroughSlot(toDevice, device, host, slabs,
                    streamOrder().inScop && !isProfiling(), where);
  else if (bytes > 0)
    used = copyWith(method, toDevice, device, host, slabs, where);
  if (!isProfiling())
    return;
  // cudaMemcpy from pageable memory may return before its DMA ends.
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  ProfileEntry e;
  e.kind = toDevice ? "copy in" : "copy out";
  e.name = array ? array : "";
  e.method = slot ? "slot" : methodName(used);
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
  copyBox(true, (char *)device, (char *)host, element_size, rank, extents, 1,
          lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_boxes_to_device(
    void *device, const void *host, size_t element_size, int rank,
    const long long *extents, int count, const long long *lower,
    const long long *upper, int method, const char *array, const char *where) {
  copyBox(true, (char *)device, (char *)host, element_size, rank, extents,
          count, lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_box_to_host(
    void *host, const void *device, size_t element_size, int rank,
    const long long *extents, const long long *lower, const long long *upper,
    int method, const char *array, const char *where) {
  copyBox(false, (char *)device, (char *)host, element_size, rank, extents,
          1, lower, upper, method, array, where);
}

extern "C" void polycuda_cuda_copy_boxes_to_host(
    void *host, const void *device, size_t element_size, int rank,
    const long long *extents, int count, const long long *lower,
    const long long *upper, int method, const char *array, const char *where) {
  copyBox(false, (char *)device, (char *)host, element_size, rank, extents,
          count, lower, upper, method, array, where);
}

/// POLYCUDA_SCOP_TIME: the start of the current scop.
static Clock::time_point scopTimeStart;

extern "C" void polycuda_cuda_begin_scop(const char *where) {
  (void)where;
  // The staging workers, asleep after 2 ms idle, spin again for the scop's
  // first copy: in the first scop, and in one after a scop that staged.
  // (A program that calls a scop that stages nothing again and again does
  // not keep them spinning.)
  static bool began = false;
  PoolHolder &h = poolHolder();
  bool ready = h.state.load(std::memory_order_acquire) == PoolState::Ready;
  if ((!began || stagedSinceScopBegan) && ready)
    h.pool->warm();
  began = true;
  stagedSinceScopBegan = false;
  // The scop's staged copies in wait for the device work issued before it
  // began, and no more (see "Ordering copies and kernels").
  StreamOrder &o = streamOrder();
  o.inScop = true;
  o.waitsForScopStart = false;
  if (ready && onPoolDevice(where)) {
    poolWaitsForDefault(h.pool, where);
    o.waitsForScopStart = true;
  }
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

extern "C" void polycuda_cuda_mark_written(const void *device,
                                           const char *where) {
  StreamOrder &o = streamOrder();
  PoolHolder &h = poolHolder();
  // Only a staged copy uses the mark; without a scop, a pool or a device
  // nothing is recorded, and the copy waits for all earlier work.
  if (!o.inScop || !deviceChecked ||
      h.state.load(std::memory_order_acquire) != PoolState::Ready)
    return;
  cudaEvent_t &event = o.written[device];
  if (!event)
    event = newEvent(where);
  checkCall(cudaEventRecord(event, 0), where, "cudaEventRecord");
}

extern "C" void polycuda_cuda_end_scop(const char *where) {
  // The scop's work ends with it, and an error of its last kernels is
  // reported here: freeing its memory no longer waits for the device. A
  // scop that used no device (all on the host) makes no CUDA call.
  if (deviceChecked)
    checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  unpackWaiting(where);
  StreamOrder &o = streamOrder();
  for (const auto &[device, event] : o.written)
    o.spare.push_back(event); // marks of arrays copied out plain, or not
  o.written.clear();
  o.inScop = false;
  o.waitsForScopStart = false;
  if (isEnvFlagSet("POLYCUDA_SCOP_TIME")) {
    fprintf(stderr, "polycuda scop time: %s: %.3f ms\n", nameOrUnknown(where),
            msSince(scopTimeStart));
  }
  // Every profiled operation was synchronized when it was recorded.
  if (isProfiling())
    printProfile(where);
}

//===- Device memory ---------------------------------------------------------===//
//
// New blocks come from the memory reserved when the program started (see
// "Device memory reserved when the program starts") or from cudaMalloc.
// Freed device memory is kept for the next allocation of about its size
// instead of going back to the driver: cudaMalloc and cudaFree took 0.6-1.1
// ms of a scop's 3-4 ms at LARGE on the H200 (gemm, atax, gemver), and
// cudaFree waits for the device. A scop called again (in a time loop, say)
// then allocates nothing. The printed code frees a scop's blocks at its
// end, and polycuda_cuda_end_scop then waits for the device, so work still
// queued on a freed block ends before the block's next user's copies and
// kernels start. At most a quarter of the device's memory is kept; when
// cudaMalloc fails, the kept blocks are returned and it is tried again; at
// exit they are returned too.

namespace {

struct DeviceMemory {
  std::unordered_map<void *, size_t> sizes; ///< blocks handed out
  std::unordered_set<void *> reserved; ///< blocks from the reserved pool
  std::multimap<size_t, void *> kept;       ///< freed blocks, by size
  size_t keptBytes = 0;
  bool exitHandler = false;
};

/// At most a quarter of the device's memory is kept, so that other code of
/// the program (a library's own cudaMalloc) still finds memory.
size_t keepLimit() {
  static const size_t limit = [] {
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
      cudaGetLastError();
      return (size_t)0;
    }
    return total / 4;
  }();
  return limit;
}

DeviceMemory &deviceMemory() {
  static DeviceMemory *memory = new DeviceMemory; // used until exit
  return *memory;
}

/// Returns a block: to the reserved pool (stream-ordered after the work
/// issued before) when it came from there, else to the driver.
cudaError_t release(void *ptr) {
  DeviceMemory &m = deviceMemory();
  if (m.reserved.erase(ptr))
    return cudaFreeAsync(ptr, 0);
  return cudaFree(ptr);
}

void releaseKept() {
  DeviceMemory &m = deviceMemory();
  for (const auto &[bytes, ptr] : m.kept)
    release(ptr); // at exit or before a retry: errors change nothing
  m.kept.clear();
  m.keptBytes = 0;
}

/// A new block: from the reserved pool once it is ready on this device,
/// else from cudaMalloc. The staging pool's stream, which does not wait
/// for the default stream, is ordered after a block taken from the pool on
/// the default stream.
cudaError_t allocate(void **ptr, size_t bytes, const char *where) {
  ReservedMemory &r = reservedMemory();
  int device = -1;
  if (!r.ready.load(std::memory_order_acquire) ||
      cudaGetDevice(&device) != cudaSuccess || device != r.device)
    return cudaMalloc(ptr, bytes);
  cudaError_t err = cudaMallocFromPoolAsync(ptr, bytes, r.pool, 0);
  if (err != cudaSuccess)
    return err;
  deviceMemory().reserved.insert(*ptr);
  if (poolHolder().state.load(std::memory_order_acquire) == PoolState::Ready)
    poolWaitsForDefault(poolHolder().pool, where);
  return cudaSuccess;
}

/// Before a retry of a failed allocation: the kept blocks returned, and the
/// reserved pool's free memory given back to the driver.
void releaseForRetry() {
  releaseKept();
  ReservedMemory &r = reservedMemory();
  if (r.ready.load(std::memory_order_acquire) &&
      (cudaDeviceSynchronize() != cudaSuccess ||
       cudaMemPoolTrimTo(r.pool, 0) != cudaSuccess))
    cudaGetLastError(); // the retry reports what is wrong
}

/// A kept block of at least `bytes` and at most twice that, or null.
void *takeKept(size_t bytes) {
  DeviceMemory &m = deviceMemory();
  auto it = m.kept.lower_bound(bytes);
  if (it == m.kept.end() || it->first / 2 > bytes)
    return nullptr;
  void *ptr = it->second;
  m.sizes[ptr] = it->first;
  m.keptBytes -= it->first;
  m.kept.erase(it);
  return ptr;
}

} // namespace

extern "C" void *polycuda_cuda_alloc(size_t bytes, const char *where) {
  char detail[64];
  snprintf(detail, sizeof(detail), "requested %zu bytes", bytes);
  // Checked before the device so that tests of the diagnostic also run on
  // machines without a GPU.
  if (isEnvFlagSet("POLYCUDA_FAIL_ALLOC"))
    failWith(where, "cudaMalloc", cudaErrorMemoryAllocation, detail);
  ensureDevice(where);
  if (bytes == 0)
    bytes = 1;
  Clock::time_point start = Clock::now();
  void *ptr = takeKept(bytes);
  if (!ptr) {
    cudaError_t err = allocate(&ptr, bytes, where);
    if (err == cudaErrorMemoryAllocation &&
        (!deviceMemory().kept.empty() ||
         reservedMemory().ready.load(std::memory_order_acquire))) {
      cudaGetLastError();
      releaseForRetry();
      err = allocate(&ptr, bytes, where);
    }
    if (err != cudaSuccess)
      failWith(where, "cudaMalloc", err, detail);
    deviceMemory().sizes[ptr] = bytes;
  }
  static bool contextSeen = false; // see registerExitJoin
  if (!contextSeen) {
    contextSeen = true;
    registerExitJoin();
  }
  if (isProfiling())
    recordAllocation(msSince(start));
  return ptr;
}

extern "C" void polycuda_cuda_free(void *ptr, const char *where) {
  if (!ptr)
    return;
  ensureDevice(where);
  Clock::time_point start = Clock::now();
  DeviceMemory &m = deviceMemory();
  auto it = m.sizes.find(ptr);
  size_t bytes = 0; // 0: not a block of polycuda_cuda_alloc's
  if (it != m.sizes.end()) {
    bytes = it->second;
    m.sizes.erase(it);
  }
  if (bytes > 0 && m.keptBytes + bytes <= keepLimit()) {
    m.kept.emplace(bytes, ptr);
    m.keptBytes += bytes;
    if (!m.exitHandler) {
      // Registered after the CUDA runtime's own handler, so it runs first.
      atexit(releaseKept);
      m.exitHandler = true;
    }
  } else {
    unpackWaiting(where); // a copy out of the block may still be queued
    checkCall(release(ptr), where, "cudaFree");
  }
  if (isProfiling())
    recordAllocation(msSince(start));
}

extern "C" void polycuda_cuda_copy_to_device(void *dst, const void *src,
                                             size_t bytes, const char *where) {
  long long upper = (long long)bytes - 1, lower = 0, extent = (long long)bytes;
  polycuda_cuda_copy_box_to_device(dst, src, 1, 1, &extent, &lower, &upper,
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
  if (!supported || perProcessor <= 0 || processors <= 0)
    return 0;
  // A persistent kernel pays when every phase fits in one block per
  // multiprocessor: it then only removes the gaps between launches. With
  // larger phases, its blocks loop over the phases' blocks with the
  // registers of the largest phase, and separate launches were faster on
  // the H100 (gramschmidt 1.8x, fdtd_2d 1.3x at LARGE).
  // POLYCUDA_PERSISTENT=always drops this rule.
  bool always = setting && strcmp(setting, "always") == 0;
  if (!always && wanted > processors)
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

extern "C" void polycuda_cuda_synchronize(const char *where) {
  ensureDevice(where);
  checkCall(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
  unpackWaiting(where);
}
