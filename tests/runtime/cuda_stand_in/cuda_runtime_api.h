//===- cuda_runtime_api.h - A stand-in for the CUDA calls of the staging pool //
//
// Test support: the few declarations of CUDA's runtime API that
// runtime/polycuda_staging.h uses, implemented on the host so that the pool's
// protocol is tested on machines without a GPU. One stream's copies run in
// order, each a random few microseconds after the previous one, and only
// when a later cudaEventQuery finds them due: a buffer that the pool reused
// before its copy completed would be copied with the wrong bytes.
// cudaStandInFailCopy(n) makes the n-th following asynchronous copy fail.
//
//===----------------------------------------------------------------------===//
#ifndef POLYCUDA_TEST_CUDA_STAND_IN_H
#define POLYCUDA_TEST_CUDA_STAND_IN_H

#include <chrono>
#include <deque>
#include <mutex>
#include <random>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNotReady = 600
};
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
enum {
  cudaHostRegisterDefault = 0,
  cudaEventDisableTiming = 2,
  cudaStreamNonBlocking = 1
};

namespace cuda_stand_in {
using Clock = std::chrono::steady_clock;

struct Copy {
  char *dst;
  size_t dpitch;
  const char *src;
  size_t spitch, width, rows;
  Clock::time_point due;
  unsigned long long seq;
};

struct State {
  std::mutex mutex;
  std::deque<Copy> pending;
  unsigned long long enqueued = 0, done = 0;
  Clock::time_point tail = Clock::now();
  std::mt19937 random{12345};
  long failIn = 0;
};

inline State &state() {
  static State *s = new State;
  return *s;
}

/// Runs the due copies in order; the caller holds the mutex.
inline void runDue() {
  State &s = state();
  Clock::time_point now = Clock::now();
  while (!s.pending.empty() && s.pending.front().due <= now) {
    const Copy &c = s.pending.front();
    for (size_t r = 0; r < c.rows; ++r)
      memcpy(c.dst + r * c.dpitch, c.src + r * c.spitch, c.width);
    s.done = c.seq;
    s.pending.pop_front();
  }
}

inline cudaError_t enqueue(void *dst, size_t dpitch, const void *src,
                           size_t spitch, size_t width, size_t rows) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.failIn > 0 && --s.failIn == 0)
    return cudaErrorInvalidValue;
  Clock::time_point now = Clock::now();
  if (s.tail < now)
    s.tail = now;
  s.tail += std::chrono::microseconds(s.random() % 40);
  s.pending.push_back({(char *)dst, dpitch, (const char *)src, spitch, width,
                       rows, s.tail, ++s.enqueued});
  return cudaSuccess;
}
} // namespace cuda_stand_in

struct CUevent_st {
  unsigned long long seq = 0;
};
struct CUstream_st {};
typedef CUevent_st *cudaEvent_t;
typedef CUstream_st *cudaStream_t;

/// The n-th asynchronous copy from now fails (n >= 1; 0: none fails).
inline void cudaStandInFailCopy(long n) {
  std::lock_guard<std::mutex> lock(cuda_stand_in::state().mutex);
  cuda_stand_in::state().failIn = n;
}

inline cudaError_t cudaHostRegister(void *, size_t, unsigned) {
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned) {
  *stream = new CUstream_st;
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned) {
  *event = new CUevent_st;
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                                   cudaMemcpyKind, cudaStream_t) {
  return cuda_stand_in::enqueue(dst, bytes, src, bytes, bytes, 1);
}
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                     size_t spitch, size_t width, size_t rows,
                                     cudaMemcpyKind, cudaStream_t) {
  return cuda_stand_in::enqueue(dst, dpitch, src, spitch, width, rows);
}
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  std::lock_guard<std::mutex> lock(cuda_stand_in::state().mutex);
  event->seq = cuda_stand_in::state().enqueued;
  return cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t event) {
  std::lock_guard<std::mutex> lock(cuda_stand_in::state().mutex);
  cuda_stand_in::runDue();
  return cuda_stand_in::state().done >= event->seq ? cudaSuccess
                                                   : cudaErrorNotReady;
}

#endif // POLYCUDA_TEST_CUDA_STAND_IN_H
