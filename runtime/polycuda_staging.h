//===- polycuda_staging.h - Boxes and the staging pool of the CUDA runtime -===//
//
// Stage: runtime, CUDA half; host code only, included by polycuda_cuda.cu.
// Input: a box of an array (its rows as slabs) and a direction.
// Output: the box copied between the user's host memory and the device
//   through a ring of pinned buffers.
// Invariants: only the thread that calls StagingPool::run makes CUDA calls;
//   the pool's workers only pack and unpack with memcpy. The header needs
//   nothing from CUDA but the runtime API's declarations, so its protocol is
//   tested on any machine against a stand-in for them
//   (tests/runtime/StagingPoolTest.cpp).
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
/// merged into its rows, so a box of whole rows (or planes) is one row.
/// The box is first clamped to the array: no index below 0, and none past
/// the extent of a dimension after the first (the first extent need not
/// bound the host array). The translator's boxes over-approximate what a
/// scop accesses, and C keeps those subscripts within their extents, so
/// the clamp drops only elements no one accesses; without it a box one
/// column too wide (isl 0.25's coalescing can add one) would copy past the
/// end of the host array.
inline std::vector<Slab> slabsOf(size_t elementSize, int rank, const long long *extents,
                          const long long *lowerIn, const long long *upperIn) {
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
// One thread, the caller, makes every CUDA call of a staged copy: it issues
// the DMAs on one stream and polls their events. The pool's workers only
// pack and unpack with memcpy, so the host threads never contend for the
// driver. A copy is cut into chunks, one DMA each, and each chunk into
// pieces of about kPieceBytes, which the workers take in order, so that
// every chunk is packed by several threads at once and a few large DMAs
// (each call costs microseconds) carry the copy. The pinned memory is a
// ring of kRingBuffers buffers, used in turn by the DMAs of all copies: the
// k-th DMA since the pool was created uses buffer k % kRingBuffers.
// - To the device: workers pack the pieces of a chunk once the DMA that
//   last used its buffer has completed; the caller issues the chunks in
//   order as they are packed, and returns once the last is issued (so the
//   next copy is packed while this one's last DMAs run).
// - To the host: the caller issues the DMA of chunk i once chunk
//   i - kRingBuffers has been unpacked (the stream orders it after the DMAs
//   of earlier copies); workers unpack the pieces of the chunks whose DMA
//   has completed, and the caller returns once all are unpacked.
// The caller packs or unpacks too when it has nothing to issue. Idle workers
// spin for a moment before they sleep, so the copies of one scop, which
// come back to back, do not wait for threads to wake.

constexpr unsigned kRingBuffers = 8;
constexpr size_t kBufferBytes = 2u << 20;
constexpr size_t kMinChunkBytes = 256u << 10;
constexpr size_t kChunksPerCopy = 4;
constexpr size_t kPieceBytes = 128u << 10;
constexpr std::chrono::microseconds kSpinBeforeSleep{2000};
/// Copies to the device up to this size pack with streaming stores (see
/// copyStreaming); larger ones measured faster with memcpy on the H200
/// host (128 MiB-1 GiB: 60-65% of pinned bandwidth against 76-79% at 16-64
/// MiB with streaming stores, 80-89% with memcpy on the H100 host).
constexpr size_t kStreamingMaxBytes = (size_t)64 << 20;

/// A part of a slab that fits one staging buffer.
struct Chunk {
  size_t offset, pitch, width, rows;
};

inline size_t bytesOf(const std::vector<Chunk> &chunks) {
  size_t bytes = 0;
  for (const Chunk &c : chunks)
    bytes += c.width * c.rows;
  return bytes;
}

/// Rows [row, row + rows) and bytes [x, x + width) of chunk `chunk`.
struct Piece {
  size_t chunk, row, rows, x, width;
};

#if defined(__SSE2__)
/// memcpy with non-temporal stores, for packing: the destination's lines
/// are not read first. On the H200 host this took a staged copy of 8 MiB to
/// the device from 19 to 35 GB/s (pinned: 51), and region times of
/// copy-bound scops down by up to 18%; it is used up to kStreamingMaxBytes.
/// Unpacking into the user's array keeps memcpy: there streaming stores
/// measured slower (8-64 MiB to the host at 40 instead of 46-49 GB/s).
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
  /// Creates the ring and starts the workers: host memory and threads
  /// only, no CUDA call, so the runtime does it on a thread of its own when
  /// the program starts (see attach). False when memory is short.
  bool prepare(unsigned numWorkers) {
    size_t total = kRingBuffers * kBufferBytes;
    if (!(memory = (char *)aligned_alloc(kBufferBytes, total)))
      return false;
#ifdef MADV_HUGEPAGE
    madvise(memory, total, MADV_HUGEPAGE); // fewer pages to lock; a hint
#endif
    // Page-locking memory that is not mapped yet maps it first: touching
    // the ring here moves most of the cost of attach out of the program's
    // way (on the H200 host, 16 MiB of huge pages registered in 2.6 ms
    // untouched, 0.6 ms touched).
    memset(memory, 0, total);
    for (unsigned b = 0; b < kRingBuffers; ++b)
      buffers[b] = memory + b * kBufferBytes;
    workers = numWorkers;
    // Each worker starts from this generation, so the first copy's
    // generation is new to it even if the thread starts after that copy.
    unsigned long long start = generation.load();
    for (unsigned w = 0; w < numWorkers; ++w)
      std::thread([this, start] { serve(start); }).detach();
    return true;
  }

  /// Page-locks the prepared ring and creates the stream and events; false
  /// if a CUDA call fails. Called once, by the thread that makes the
  /// copies' CUDA calls.
  bool attach() {
    // Page-locking memory of the process costs several times less than
    // cudaHostAlloc (on the H100 host: 16 MiB registered in 1.9 ms,
    // allocated pinned in 13 ms).
    if (cudaHostRegister(memory, kRingBuffers * kBufferBytes,
                         cudaHostRegisterDefault) != cudaSuccess)
      return false;
    // A non-blocking stream: the runtime orders it with the default stream
    // by events (polycuda_cuda.cu), so that copies overlap kernels.
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) !=
        cudaSuccess)
      return false;
    for (unsigned b = 0; b < kRingBuffers; ++b)
      if (cudaEventCreateWithFlags(&events[b], cudaEventDisableTiming) !=
          cudaSuccess)
        return false;
    return true;
  }

  /// The stream of the DMAs (after attach).
  cudaStream_t dmaStream() const { return stream; }

  /// prepare, then attach.
  bool create(unsigned numWorkers) { return prepare(numWorkers) && attach(); }

  /// Keeps idle workers spinning for another kSpinBeforeSleep, waking
  /// those asleep: called when a scop starts, so that its first copy does
  /// not wait for threads to wake (a futex wake and a reschedule per
  /// thread). No CUDA call.
  void warm() {
    warmth.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(sleepMutex); }
    wake.notify_all();
  }

  /// Waits for the DMAs still in flight (a copy to the device returns once
  /// its last DMA is issued); returns the first CUDA error.
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
    job.toDevice = toDevice;
    job.base = issuedTotal;
    job.streaming = toDevice && bytesOf(chunks) <= kStreamingMaxBytes;
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
    // To the device, a buffer whose DMA of the previous copy may still be
    // in flight is not packed before that DMA completes.
    limit.store(toDevice ? completedTotal + kRingBuffers - job.base : 0,
                std::memory_order_relaxed);
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
    /// Chunk i of the copy is the DMA number base + i of the ring (its
    /// buffer: (base + i) % kRingBuffers).
    size_t base = 0;
    bool streaming = false; ///< pack with streaming stores
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
    char *buffer = buffers[slot(i)];
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

  /// Issues every chunk's DMA as soon as it is packed, and returns once
  /// the last is issued: the user's bytes are all in the ring then (the
  /// runtime orders later kernels after the DMAs by an event; the next
  /// staged copy waits for a buffer's DMA before it packs that buffer
  /// again). The next copy's packing thus overlaps this one's last DMAs.
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
/// cores (at least 2, at most 8); never more than the cores but one. The workers spin while a
/// copy runs, and the calling thread issues its DMAs: with a worker on
/// every core it waited for one. On the H200 host's 16 cores, 16 workers
/// took bicg's, gemm's and gesummv's copies to 2.8-9.4 ms, against 0.9-1.3
/// ms with 8 to 15 (sweeps as bench/polybench/transfer_threads.sh runs
/// them, at 0399691; git history of bench/results at 9c73b08).
inline unsigned workerCount(unsigned cores) {
  unsigned wanted = std::max(2u, std::min(8u, cores / 2));
  return cores ? std::min(wanted, cores - 1) : wanted;
}

/// Chunks of about a quarter of the copy (kChunksPerCopy), at least
/// kMinChunkBytes, at most one buffer. Fewer, larger DMAs to the host run
/// faster: on the H100 host (8 workers) 8 MiB to the host ran at 42 GB/s
/// in quarters against 28 in eighths, 20 in sixteenths (pinned: 53), and
/// 16 MiB at 46, 46 and 30-35; to the device quarters and eighths were
/// within 10% of each other (bench/transfers/geometry.sh at c789a2f; the
/// record is in the git history of bench/results at 9c73b08).
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
