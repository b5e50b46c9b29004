// harness.h -- shared helpers of the bench/runner harness: CUDA/cuBLAS error
// checks, pinned/device allocation, random fills and poisoning, relative L2
// error, timing (cudaEvents for kernels, host clock around synchronous
// end-to-end calls) and CSV reporting.  Used by bench/baselines/*.cu and
// bench/runner/main.cu.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

void check_cuda(cudaError_t e, const char *what, const char *file, int line);
void check_cublas(cublasStatus_t s, const char *what, const char *file, int line);
#define CK(x) check_cuda((x), #x, __FILE__, __LINE__)
#define CKB(x) check_cublas((x), #x, __FILE__, __LINE__)
// After every <<<>>> launch.
#define CK_LAUNCH() CK(cudaGetLastError())

struct Ctx {
  FILE *csv = nullptr;
  int reps = 20;        // timed repetitions (median, min reported)
  int warmup = 3;       // untimed runs before timing
  int e2e_reps = 20;    // repetitions of end-to-end (host in, host out) runs
  bool quick = false;   // skip the largest sizes
  std::vector<std::string> only;  // run only these groups (empty: all)
  cublasHandle_t cublas = nullptr;
  cudaDeviceProp prop{};
  int failures = 0;
  bool wants(const std::string &group) const;
};

struct Timing {
  double median_ms = 0, min_ms = 0;
};

// Kernel-only time: `launch(copy)` enqueues the work on the default stream
// for input/output copy number `copy`; timed rep by rep with cudaEvents,
// after ctx.warmup untimed runs, rotating over `copies` copies.
Timing time_device(Ctx &ctx, int copies, const std::function<void(int)> &launch);
// End-to-end time of a synchronous call (host arrays in, host arrays out):
// host steady clock, device synchronized before and after each call.
Timing time_host(Ctx &ctx, const std::function<void()> &call);
// Number of input/output copies to rotate over so that the working set of
// all copies is at least 3x the L2 cache (1 when one copy exceeds L2).
int copies_for(const Ctx &ctx, size_t working_set_bytes);

// One CSV row and one line on stdout.  flops/bytes: the operation count and
// the minimal device-memory traffic of one run (0: column left empty).
// err < 0: not checked.  check: err <= tol and finite.
void report(Ctx &ctx, const std::string &group, const std::string &variant,
            const std::string &size, const Timing &t, double flops,
            double bytes, double err, double tol);

// Relative L2 error ||out - ref|| / ||ref||; +inf if out has a NaN/Inf.
double rel_l2(const double *out, const double *ref, size_t n);
// Same over a 2-D interior [lo, hi) x [lo, hi) of n x n row-major arrays.
double rel_l2_interior(const double *out, const double *ref, size_t n,
                       size_t lo, size_t hi);
// Accumulates for sampled checks.
struct ErrAcc {
  double num = 0, den = 0;
  bool bad = false;
  void add(double out, double ref);
  double value() const;
};

// Random values in +-[0.1, 1): never zero.
void fill_random(double *p, size_t n, uint64_t seed);
void fill_random(float *p, size_t n, uint64_t seed);
void poison_host(double *p, size_t n);  // NaN
void poison_device(void *p, size_t bytes);  // 0xFF bytes: NaN

template <class T> T *host_alloc(size_t n) {
  void *p = nullptr;
  CK(cudaMallocHost(&p, n * sizeof(T)));
  return static_cast<T *>(p);
}
template <class T> T *dev_alloc(size_t n) {
  void *p = nullptr;
  CK(cudaMalloc(&p, n * sizeof(T)));
  return static_cast<T *>(p);
}
inline void h2d(void *d, const void *h, size_t bytes) {
  CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
}
inline void d2h(void *h, const void *d, size_t bytes) {
  CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}

// Simple deterministic generator for sample positions.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    return s;
  }
  size_t below(size_t n) { return (size_t)(next() % n); }
};

// Tolerances of the relative L2 error.
constexpr double kTolDouble = 1e-10;
constexpr double kTolFloat = 1e-4;

// Groups (bench/baselines/*.cu).
void group_gemm(Ctx &ctx);
void group_transpose(Ctx &ctx);
void group_mv(Ctx &ctx);
void group_stencil(Ctx &ctx);
void group_sumprod(Ctx &ctx);
