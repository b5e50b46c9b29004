// transpose.cu -- B = A^T on n x n row-major doubles: naive (one thread per
// element, coalesced reads, strided writes) and tiled through shared memory
// tile[32][33] (padding against bank conflicts, 32x8 threads, 4 elements
// each), against polycuda's translation of bench/runner/kernels/transpose.c.
// Checked exactly against a CPU transpose (rel. L2 error, 0 expected).
#include "harness.h"
#include "generated_api.h"

#include <string>

namespace {

__global__ void transpose_naive(int n, double *__restrict__ B, const double *__restrict__ A) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) B[(size_t)j * n + i] = A[(size_t)i * n + j];
}

__global__ void transpose_tiled(int n, double *__restrict__ B, const double *__restrict__ A) {
  __shared__ double tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y0 = blockIdx.y * 32;
  for (int r = threadIdx.y; r < 32; r += 8)
    if (y0 + r < n && x < n) tile[r][threadIdx.x] = A[(size_t)(y0 + r) * n + x];
  __syncthreads();
  int ox = blockIdx.y * 32 + threadIdx.x;  // column of B = row of A
  int oy0 = blockIdx.x * 32;
  for (int r = threadIdx.y; r < 32; r += 8)
    if (oy0 + r < n && ox < n) B[(size_t)(oy0 + r) * n + ox] = tile[threadIdx.x][r];
}

void launch(const std::string &v, int n, double *B, const double *A) {
  if (v == "naive") {
    dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
    transpose_naive<<<grd, blk>>>(n, B, A);
  } else {
    dim3 blk(32, 8), grd((n + 31) / 32, (n + 31) / 32);
    transpose_tiled<<<grd, blk>>>(n, B, A);
  }
  CK_LAUNCH();
}

}  // namespace

void group_transpose(Ctx &ctx) {
  const int n = GEN_TR_N;
  const std::string size = std::to_string(n) + "^2";
  const size_t nn = (size_t)n * n, bytes = nn * sizeof(double);
  const double traffic = 2.0 * bytes;
  double *hA = host_alloc<double>(nn), *hB = host_alloc<double>(nn);
  std::vector<double> ref(nn);
  fill_random(hA, nn, 21);
  for (size_t i = 0; i < (size_t)n; i++)
    for (size_t j = 0; j < (size_t)n; j++) ref[j * n + i] = hA[i * n + j];
  double *dA = dev_alloc<double>(nn), *dB = dev_alloc<double>(nn);
  h2d(dA, hA, bytes);
  for (const char *vc : {"naive", "tiled32x33"}) {
    std::string v = vc;
    poison_device(dB, bytes);
    launch(v, n, dB, dA);
    CK(cudaDeviceSynchronize());
    poison_host(hB, nn);
    d2h(hB, dB, bytes);
    double err = rel_l2(hB, ref.data(), nn);
    Timing t = time_device(ctx, 1, [&](int) { launch(v, n, dB, dA); });
    report(ctx, "transpose", v + "/kernel", size, t, 0, traffic, err, kTolDouble);
    Timing te = time_host(ctx, [&]() {
      double *a = dev_alloc<double>(nn), *b = dev_alloc<double>(nn);
      h2d(a, hA, bytes);
      launch(v, n, b, a);
      d2h(hB, b, bytes);
      CK(cudaFree(a));
      CK(cudaFree(b));
    });
    report(ctx, "transpose", v + "/e2e", size, te, 0, traffic, err, kTolDouble);
  }
  {
    auto call = [&]() {
      bench_transpose(n, (double(*)[GEN_TR_N])hB, (double(*)[GEN_TR_N])hA);
    };
    poison_host(hB, nn);
    call();
    double err = rel_l2(hB, ref.data(), nn);
    Timing te = time_host(ctx, call);
    report(ctx, "transpose", "polycuda/e2e", size, te, 0, traffic, err, kTolDouble);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFreeHost(hA));
  CK(cudaFreeHost(hB));
}
