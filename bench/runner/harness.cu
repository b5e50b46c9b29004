// harness.cu -- implementation of harness.h.
#include "harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

void check_cuda(cudaError_t e, const char *what, const char *file, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what,
            cudaGetErrorString(e));
    exit(1);
  }
}

void check_cublas(cublasStatus_t s, const char *what, const char *file,
                  int line) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d\n", file, line, what,
            (int)s);
    exit(1);
  }
}

bool Ctx::wants(const std::string &group) const {
  return only.empty() ||
         std::find(only.begin(), only.end(), group) != only.end();
}

static Timing summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Timing t;
  size_t n = v.size();
  t.median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  t.min_ms = v.front();
  return t;
}

Timing time_device(Ctx &ctx, int copies, const std::function<void(int)> &launch) {
  if (copies < 1) copies = 1;
  CK(cudaDeviceSynchronize());
  for (int w = 0; w < ctx.warmup; w++)
    launch(w % copies);
  CK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * ctx.reps);
  for (auto &e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < ctx.reps; r++) {
    CK(cudaEventRecord(ev[2 * r]));
    launch(r % copies);
    CK(cudaEventRecord(ev[2 * r + 1]));
  }
  CK(cudaDeviceSynchronize());
  std::vector<double> ms(ctx.reps);
  for (int r = 0; r < ctx.reps; r++) {
    float m = 0;
    CK(cudaEventElapsedTime(&m, ev[2 * r], ev[2 * r + 1]));
    ms[r] = m;
  }
  for (auto &e : ev) CK(cudaEventDestroy(e));
  return summarize(ms);
}

Timing time_host(Ctx &ctx, const std::function<void()> &call) {
  CK(cudaDeviceSynchronize());
  for (int w = 0; w < std::min(ctx.warmup, 2); w++) call();
  CK(cudaDeviceSynchronize());
  std::vector<double> ms(ctx.e2e_reps);
  for (int r = 0; r < ctx.e2e_reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    CK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    ms[r] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  }
  return summarize(ms);
}

int copies_for(const Ctx &ctx, size_t working_set_bytes) {
  size_t l2 = ctx.prop.l2CacheSize > 0 ? (size_t)ctx.prop.l2CacheSize : (50u << 20);
  if (working_set_bytes == 0 || working_set_bytes > l2) return 1;
  size_t c = (3 * l2 + working_set_bytes - 1) / working_set_bytes;
  return (int)std::min<size_t>(c, 16);
}

void report(Ctx &ctx, const std::string &group, const std::string &variant,
            const std::string &size, const Timing &t, double flops,
            double bytes, double err, double tol) {
  const char *check = "n/a";
  if (err >= 0 || std::isnan(err)) {
    bool ok = std::isfinite(err) && err <= tol;
    check = ok ? "pass" : "FAIL";
    if (!ok) ctx.failures++;
  }
  char gf[32] = "", gb[32] = "", re[32] = "";
  if (flops > 0 && t.median_ms > 0) snprintf(gf, sizeof gf, "%.2f", flops / t.median_ms / 1e6);
  if (bytes > 0 && t.median_ms > 0) snprintf(gb, sizeof gb, "%.2f", bytes / t.median_ms / 1e6);
  if (err >= 0 || std::isnan(err)) snprintf(re, sizeof re, "%.3e", err);
  fprintf(ctx.csv, "%s,%s,%s,%.5f,%.5f,%s,%s,%s,%s\n", group.c_str(),
          variant.c_str(), size.c_str(), t.median_ms, t.min_ms, gf, gb, re, check);
  fflush(ctx.csv);
  printf("%-10s %-26s %-14s %10.4f ms (min %10.4f) %10s GFLOP/s %9s GB/s  err %-10s %s\n",
         group.c_str(), variant.c_str(), size.c_str(), t.median_ms, t.min_ms,
         gf, gb, re, check);
  fflush(stdout);
}

double rel_l2(const double *out, const double *ref, size_t n) {
  ErrAcc a;
  for (size_t i = 0; i < n; i++) a.add(out[i], ref[i]);
  return a.value();
}

double rel_l2_interior(const double *out, const double *ref, size_t n,
                       size_t lo, size_t hi) {
  ErrAcc a;
  for (size_t i = lo; i < hi; i++)
    for (size_t j = lo; j < hi; j++) a.add(out[i * n + j], ref[i * n + j]);
  return a.value();
}

void ErrAcc::add(double out, double ref) {
  if (!std::isfinite(out)) bad = true;
  double d = out - ref;
  num += d * d;
  den += ref * ref;
}

double ErrAcc::value() const {
  if (bad) return INFINITY;
  if (den == 0) return num == 0 ? 0 : INFINITY;
  return std::sqrt(num / den);
}

void fill_random(double *p, size_t n, uint64_t seed) {
  Rng r(seed);
  for (size_t i = 0; i < n; i++) {
    uint64_t x = r.next();
    double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);  // [0,1)
    double v = 0.1 + 0.9 * u;
    p[i] = (x & 1) ? -v : v;
  }
}

void fill_random(float *p, size_t n, uint64_t seed) {
  Rng r(seed);
  for (size_t i = 0; i < n; i++) {
    uint64_t x = r.next();
    double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
    float v = (float)(0.1 + 0.9 * u);
    p[i] = (x & 1) ? -v : v;
  }
}

void poison_host(double *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = NAN;
}

void poison_device(void *p, size_t bytes) { CK(cudaMemset(p, 0xFF, bytes)); }
