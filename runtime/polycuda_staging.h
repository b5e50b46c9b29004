//===- polycuda_staging.h - Boxes and the staging pool of the CUDA runtime -===//
//
// Stage: runtime, CUDA half; host code only, included by polycuda_cuda.cu.
// Input: a box of an array (its rows as slabs) and a direction.
// Output: the box copied through a ring of pinned buffers.
// Invariants: only the thread that calls StagingPool::run makes CUDA calls;
//   needs only the runtime API's declarations, so it is tested against a
//   stand-in (tests/runtime/StagingPoolTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_STAGING_H
#define POLYCUDA_STAGING_H

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace polycuda {
namespace staging {

//===- Boxes ---------------------------------------------------------------===//

/// `rows` rows of `width` bytes, `pitch` bytes apart, starting `offset`
/// bytes into both the host and the device array (same layout).
struct Slab {
  size_t offset, pitch, width, rows;
};

/// A box as 2-D slabs: trailing dimensions that the box covers entirely are
/// merged into its rows. The box is first clamped to the array (no index
/// below 0 nor past the extent of a dimension after the first): the
/// translator's boxes over-approximate the accesses (isl's coalescing can
/// add a column), and the clamp keeps a copy inside the host array.
inline std::vector<Slab> slabsOf(size_t elementSize, int rank,
                                 const long long *extents,
                                 const long long *lowerIn,
                                 const long long *upperIn) {
  std::vector<Slab> slabs;
  if (rank <= 0) {
    slabs.push_back({0, elementSize, elementSize, 1});
    return slabs;
  }
  std::vector<long long> lower(lowerIn, lowerIn + rank),
      upper(upperIn, upperIn + rank);
  std::vector<size_t> stride(rank), count(rank);
  for (int d = 0; d < rank; ++d) {
    if (lower[d] < 0)
      lower[d] = 0;
    if (d > 0 && upper[d] > extents[d] - 1)
      upper[d] = extents[d] - 1;
    if (upper[d] < lower[d])
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

inline size_t bytesOf(const std::vector<Slab> &slabs) {
  size_t bytes = 0;
  for (const Slab &s : slabs)
    bytes += s.width * s.rows;
  return bytes;
}

//===- The staging pool ----------------------------------------------------===//
//
// The caller makes every CUDA call of a staged copy (the DMAs on one stream,
// event polls); the workers only pack and unpack with memcpy. A copy is cut
// into chunks, one DMA each, and chunks into pieces of kPieceBytes that the
// workers take in order. The pinned memory is a ring of kRingBuffers
// buffers: the k-th DMA since the pool was created uses buffer
// k % kRingBuffers.
// - To the device: a chunk is packed once the DMA that last used its buffer
//   has completed; the caller issues chunks in order as they are packed and
//   returns once the last is issued.
// - To the host: the DMA of chunk i is issued once chunk i - kRingBuffers
//   is unpacked; chunks are unpacked once their DMA has completed; the
//   caller returns once all are unpacked.
// The caller also packs/unpacks when it has nothing to issue. Idle workers
// spin kSpinBeforeSleep before they sleep. Geometry, streaming stores and
// the worker count were measured: docs/runtime.md.

constexpr unsigned kRingBuffers = 8;
constexpr size_t kBufferBytes = 2u << 20;
constexpr size_t kMinChunkBytes = 256u << 10;
constexpr size_t kChunksPerCopy = 4;
constexpr size_t kPieceBytes = 128u << 10;
constexpr std::chrono::microseconds kSpinBeforeSleep{2000};
/// Copies to the device up to this size pack with streaming stores.
constexpr size_t kStreamingMaxBytes = (size_t)64 << 20;

/// A part of a slab that fits one staging buffer.
using Chunk = Slab;

/// Rows [row, row + rows) and bytes [x, x + width) of chunk `chunk`.
struct Piece {
  size_t chunk, row, rows, x, width;
};

#if defined(__SSE2__)
/// memcpy with non-temporal stores (packing: the ring's lines not read).
inline void copyStreaming(char *dst, const char *src, size_t n) {
  size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
  if (n < head + 256) {
    memcpy(dst, src, n);
    return;
  }
  memcpy(dst, src, head);
  dst += head, src += head, n -= head;
  size_t body = n & ~(size_t)63;
  for (size_t i = 0; i < body; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    _mm_stream_si128((__m128i *)(dst + i), a);
    _mm_stream_si128((__m128i *)(dst + i + 16), b);
    _mm_stream_si128((__m128i *)(dst + i + 32), c);
    _mm_stream_si128((__m128i *)(dst + i + 48), d);
  }
  memcpy(dst + body, src + body, n - body);
}
/// Non-temporal stores are not ordered by release operations.
inline void finishCopies() { _mm_sfence(); }
#else
inline void copyStreaming(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}
inline void finishCopies() {}
#endif

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

class StagingPool {
public:
  /// Creates and touches the ring and starts the workers (no CUDA call);
  /// false when memory is short.
  bool prepare(unsigned numWorkers) {
    size_t total = kRingBuffers * kBufferBytes;
    if (!(memory = (char *)aligned_alloc(kBufferBytes, total)))
      return false;
#ifdef MADV_HUGEPAGE
    madvise(memory, total, MADV_HUGEPAGE); // fewer pages to lock; a hint
#endif
    memset(memory, 0, total); // touched: page-locking it is then cheaper
    for (unsigned b = 0; b < kRingBuffers; ++b)
      buffers[b] = memory + b * kBufferBytes;
    workers = numWorkers;
    // A worker that starts after the first copy still sees it as new.
    unsigned long long start = generation.load();
    for (unsigned w = 0; w < numWorkers; ++w)
      std::thread([this, start] { serve(start); }).detach();
    return true;
  }

  /// Page-locks the ring, creates the stream (non-blocking: ordered with
  /// the default stream by events only) and events; false if one fails.
  bool attach() {
    bool ok = cudaHostRegister(memory, kRingBuffers * kBufferBytes,
                               cudaHostRegisterDefault) == cudaSuccess &&
              cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) ==
                  cudaSuccess;
    for (unsigned b = 0; b < kRingBuffers && ok; ++b)
      ok = cudaEventCreateWithFlags(&events[b], cudaEventDisableTiming) ==
           cudaSuccess;
    return ok;
  }

  /// The stream of the DMAs (after attach).
  cudaStream_t dmaStream() const { return stream; }

  bool create(unsigned numWorkers) { return prepare(numWorkers) && attach(); }

  /// Keeps idle workers spinning for another kSpinBeforeSleep, waking
  /// those asleep (when a scop starts). No CUDA call.
  void warm() {
    warmth.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(sleepMutex); }
    wake.notify_all();
  }

  /// Waits for the DMAs still in flight; returns the first CUDA error.
  cudaError_t synchronize() {
    std::lock_guard<std::mutex> serialize(runMutex);
    error = cudaSuccess;
    while (completedTotal < issuedTotal && pollCompleted())
      cpuRelax();
    return error;
  }

  /// Copies `chunks` between `host` and `device`; returns the first CUDA
  /// error, with the operation that failed.
  cudaError_t run(bool toDevice, char *device, char *host,
                  const std::vector<Chunk> &chunks,
                  const std::vector<Piece> &pieces,
                  const char *&failedOperation) {
    std::lock_guard<std::mutex> serialize(runMutex);
    job.toDevice = toDevice, job.base = issuedTotal;
    job.streaming = toDevice && bytesOf(chunks) <= kStreamingMaxBytes;
    job.device = device, job.host = host;
    job.chunks = &chunks, job.pieces = &pieces;
    job.left.reset(new std::atomic<size_t>[chunks.size()]);
    for (size_t i = 0; i < chunks.size(); ++i)
      job.left[i].store(0, std::memory_order_relaxed);
    for (const Piece &p : pieces)
      job.left[p.chunk].fetch_add(1, std::memory_order_relaxed);
    next.store(0, std::memory_order_relaxed);
    // To the device: no buffer packed before its last DMA completed.
    limit.store(toDevice ? completedTotal + kRingBuffers - job.base : 0,
                std::memory_order_relaxed);
    failed.store(false, std::memory_order_relaxed);
    finished.store(0, std::memory_order_relaxed);
    error = cudaSuccess, operation = nullptr;
    generation.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(sleepMutex); }
    wake.notify_all();

    if (toDevice)
      issueToDevice();
    else
      issueToHost();

    while (finished.load(std::memory_order_acquire) < workers)
      cpuRelax();
    job.chunks = nullptr, job.pieces = nullptr;
    failedOperation = operation;
    return error;
  }

private:
  struct Job {
    bool toDevice = true, streaming = false; ///< pack with streaming stores
    size_t base = 0; ///< chunk i is the ring's DMA number base + i
    char *device = nullptr, *host = nullptr;
    const std::vector<Chunk> *chunks = nullptr;
    const std::vector<Piece> *pieces = nullptr;
    /// Per chunk: its pieces not yet packed (unpacked).
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
    char *buffer = buffers[slot(i)];
    char *user = job.device + c.offset;
    char *dst = job.toDevice ? user : buffer;
    const char *src = job.toDevice ? buffer : user;
    cudaMemcpyKind kind =
        job.toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    cudaError_t err =
        c.rows == 1
            ? cudaMemcpyAsync(dst, src, c.width, kind, stream)
            : cudaMemcpy2DAsync(dst, job.toDevice ? c.pitch : c.width, src,
                                job.toDevice ? c.width : c.pitch, c.width,
                                c.rows, kind, stream);
    if (err != cudaSuccess)
      return fail(err, dmaName());
    ++issuedTotal;
    if ((err = cudaEventRecord(events[slot(i)], stream)) != cudaSuccess)
      fail(err, "cudaEventRecord (staged copy)");
  }

  /// The ring buffer of chunk `i` of the current copy.
  size_t slot(size_t i) const { return (job.base + i) % kRingBuffers; }

  /// Advances completedTotal past the DMAs that have completed (of this
  /// copy and of earlier ones); false on an error.
  bool pollCompleted() {
    while (completedTotal < issuedTotal) {
      cudaError_t err = cudaEventQuery(events[completedTotal % kRingBuffers]);
      if (err == cudaErrorNotReady)
        return true;
      if (err != cudaSuccess) {
        fail(err, dmaName());
        return false;
      }
      ++completedTotal;
    }
    return true;
  }

  /// True when the DMA of chunk `i` has completed (false on an error).
  bool dmaCompleted(size_t i) {
    cudaError_t err = cudaEventQuery(events[slot(i)]);
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
    char *buffer = buffers[slot(p.chunk)] + p.x;
    char *user = job.host + c.offset + p.x;
    for (size_t r = p.row; r < p.row + p.rows; ++r) {
      if (job.streaming)
        copyStreaming(buffer + r * c.width, user + r * c.pitch, p.width);
      else if (job.toDevice)
        memcpy(buffer + r * c.width, user + r * c.pitch, p.width);
      else
        memcpy(user + r * c.pitch, buffer + r * c.width, p.width);
    }
    if (job.streaming)
      finishCopies();
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

  /// Issues each chunk's DMA once packed; returns once the last is issued
  /// (the user's bytes are all in the ring then).
  void issueToDevice() {
    size_t n = job.chunks->size(), issued = 0;
    while (issued < n && !failed.load(std::memory_order_relaxed)) {
      bool progress = false;
      if (moved(issued)) {
        dma(issued++);
        progress = true;
      }
      size_t done = completedTotal;
      if (!pollCompleted())
        break;
      if (completedTotal != done) {
        limit.store(completedTotal + kRingBuffers - job.base,
                    std::memory_order_release);
        progress = true;
      }
      size_t i;
      if (!progress && issuedTotal == completedTotal && takeAllowed(i)) {
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
    if (!failed.load(std::memory_order_relaxed))
      completedTotal = issuedTotal; // every DMA of the ring has completed
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
      unsigned long long warmed = warmth.load(std::memory_order_acquire);
      while (generation.load(std::memory_order_acquire) == seen) {
        if (++spins % 256 != 0) {
          cpuRelax();
          continue;
        }
        unsigned long long w = warmth.load(std::memory_order_acquire);
        if (w != warmed) { // warm(): spin afresh
          warmed = w;
          idleSince = std::chrono::steady_clock::now();
          continue;
        }
        if (std::chrono::steady_clock::now() - idleSince < kSpinBeforeSleep)
          continue;
        std::unique_lock<std::mutex> lock(sleepMutex);
        wake.wait(lock, [&] {
          return generation.load(std::memory_order_acquire) != seen ||
                 warmth.load(std::memory_order_acquire) != warmed;
        });
      }
      seen = generation.load(std::memory_order_acquire);
      work();
      finished.fetch_add(1, std::memory_order_release);
    }
  }

  unsigned workers = 0;
  char *memory = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t events[kRingBuffers] = {};
  char *buffers[kRingBuffers] = {};
  std::mutex runMutex, sleepMutex;
  std::condition_variable wake;
  Job job;
  std::atomic<unsigned long long> generation{0};
  /// Bumped by warm().
  std::atomic<unsigned long long> warmth{0};
  /// `next`: the next piece to take. The pieces of chunks below `limit` may
  /// be moved: to the device, those whose buffer is free; to the host, those
  /// whose DMA has completed.
  std::atomic<size_t> next{0}, limit{0};
  std::atomic<unsigned> finished{0};
  std::atomic<bool> failed{false};
  /// DMAs issued, and known to have completed, since the pool was created
  /// (the caller's; DMA k used buffer k % kRingBuffers, and the event of
  /// that buffer was recorded after it).
  size_t issuedTotal = 0, completedTotal = 0;
  cudaError_t error = cudaSuccess;
  const char *operation = nullptr;
};

/// The pool's workers on a host of `cores` cores (0: not known): half the
/// cores, 2 to 8, never more than the cores but one (the caller, which
/// issues the DMAs, keeps a core).
inline unsigned workerCount(unsigned cores) {
  unsigned wanted = std::max(2u, std::min(8u, cores / 2));
  return cores ? std::min(wanted, cores - 1) : wanted;
}

/// Chunks of about a quarter of the copy, at least kMinChunkBytes, at most
/// one buffer.
inline std::vector<Chunk> chunksOf(const std::vector<Slab> &slabs) {
  size_t target = bytesOf(slabs) / kChunksPerCopy;
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
inline std::vector<Piece> piecesOf(const std::vector<Chunk> &chunks) {
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

} // namespace staging
} // namespace polycuda

#endif // POLYCUDA_STAGING_H
