// mv.cu -- y = A x (group "mv") and y = A^T x (group "tmv") on an n x n
// row-major double matrix.  mv: naive (one thread per row: uncoalesced) and
// warp-per-row (lanes stride the row, shuffle reduction).  tmv: naive (one
// thread per column: coalesced) and a block-tiled version (32 columns x 8
// row slices per block, partial sums reduced in shared memory).  cuBLAS
// DGEMV for both; polycuda's translations of kernels/mv.c and kernels/tmv.c.
// Checked against a CPU product in long double.
#include "harness.h"
#include "generated_api.h"

#include <string>

namespace {

__global__ void mv_naive(int n, double *__restrict__ y, const double *__restrict__ A,
                         const double *__restrict__ x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = 0;
  for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
  y[i] = s;
}

__global__ void mv_warp(int n, double *__restrict__ y, const double *__restrict__ A,
                        const double *__restrict__ x) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= n) return;
  const double *a = A + (size_t)row * n;
  double s = 0;
  for (int j = lane; j < n; j += 32) s += a[j] * x[j];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

__global__ void tmv_naive(int n, double *__restrict__ y, const double *__restrict__ A,
                          const double *__restrict__ x) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  double s = 0;
  for (int i = 0; i < n; i++) s += A[(size_t)i * n + j] * x[i];
  y[j] = s;
}

// Block of 32 x 8 threads: 32 columns, 8 interleaved row slices.
__global__ void tmv_tiled(int n, double *__restrict__ y, const double *__restrict__ A,
                          const double *__restrict__ x) {
  __shared__ double part[8][33];
  int j = blockIdx.x * 32 + threadIdx.x;
  double s = 0;
  if (j < n)
    for (int i = threadIdx.y; i < n; i += 8) s += A[(size_t)i * n + j] * x[i];
  part[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0 && j < n) {
    double t = 0;
#pragma unroll
    for (int r = 0; r < 8; r++) t += part[r][threadIdx.x];
    y[j] = t;
  }
}

void launch(Ctx &ctx, bool trans, const std::string &v, int n, double *y,
            const double *A, const double *x) {
  const double one = 1, zero = 0;
  if (v == "cublas_dgemv") {
    // Row-major A is column-major A^T.
    CKB(cublasDgemv(ctx.cublas, trans ? CUBLAS_OP_N : CUBLAS_OP_T, n, n, &one,
                    A, n, x, 1, &zero, y, 1));
    return;
  }
  if (!trans && v == "naive") mv_naive<<<(n + 127) / 128, 128>>>(n, y, A, x);
  else if (!trans) mv_warp<<<(n + 7) / 8, 256>>>(n, y, A, x);
  else if (v == "naive") tmv_naive<<<(n + 127) / 128, 128>>>(n, y, A, x);
  else tmv_tiled<<<(n + 31) / 32, dim3(32, 8)>>>(n, y, A, x);
  CK_LAUNCH();
}

void run(Ctx &ctx, bool trans) {
  const int n = GEN_MV_N;
  const char *group = trans ? "tmv" : "mv";
  const std::string size = std::to_string(n) + "^2";
  const size_t nn = (size_t)n * n, bytes = nn * sizeof(double);
  const size_t vb = n * sizeof(double);
  const double flops = 2.0 * nn, traffic = bytes + 2.0 * vb;
  double *hA = host_alloc<double>(nn), *hx = host_alloc<double>(n),
         *hy = host_alloc<double>(n);
  fill_random(hA, nn, trans ? 31 : 32);
  fill_random(hx, n, trans ? 33 : 34);
  std::vector<long double> acc(n, 0.0L);
  for (size_t i = 0; i < (size_t)n; i++)
    for (size_t j = 0; j < (size_t)n; j++) {
      if (trans) acc[j] += (long double)hA[i * n + j] * hx[i];
      else acc[i] += (long double)hA[i * n + j] * hx[j];
    }
  std::vector<double> ref(acc.begin(), acc.end());
  double *dA = dev_alloc<double>(nn), *dx = dev_alloc<double>(n),
         *dy = dev_alloc<double>(n);
  h2d(dA, hA, bytes);
  h2d(dx, hx, vb);
  for (const char *vc : {"naive", trans ? "tiled32x8" : "warp_per_row", "cublas_dgemv"}) {
    std::string v = vc;
    poison_device(dy, vb);
    launch(ctx, trans, v, n, dy, dA, dx);
    CK(cudaDeviceSynchronize());
    poison_host(hy, n);
    d2h(hy, dy, vb);
    double err = rel_l2(hy, ref.data(), n);
    Timing t = time_device(ctx, 1, [&](int) { launch(ctx, trans, v, n, dy, dA, dx); });
    report(ctx, group, v + "/kernel", size, t, flops, traffic, err, kTolDouble);
    Timing te = time_host(ctx, [&]() {
      double *a = dev_alloc<double>(nn), *xx = dev_alloc<double>(n),
             *yy = dev_alloc<double>(n);
      h2d(a, hA, bytes);
      h2d(xx, hx, vb);
      launch(ctx, trans, v, n, yy, a, xx);
      d2h(hy, yy, vb);
      CK(cudaFree(a));
      CK(cudaFree(xx));
      CK(cudaFree(yy));
    });
    report(ctx, group, v + "/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  {
    auto call = [&]() {
      if (trans) bench_tmv(n, hy, (double(*)[GEN_MV_N])hA, hx);
      else bench_mv(n, hy, (double(*)[GEN_MV_N])hA, hx);
    };
    poison_host(hy, n);
    call();
    double err = rel_l2(hy, ref.data(), n);
    Timing te = time_host(ctx, call);
    report(ctx, group, "polycuda/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
  CK(cudaFreeHost(hA));
  CK(cudaFreeHost(hx));
  CK(cudaFreeHost(hy));
}

}  // namespace

void group_mv(Ctx &ctx) {
  if (ctx.wants("mv")) run(ctx, false);
  if (ctx.wants("tmv")) run(ctx, true);
}
