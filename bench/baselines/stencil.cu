// stencil.cu -- one sweep of two 2-D stencils on n x n row-major doubles,
// interior points only (radius R from the border):
//   jacobi2d (R=1): B = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
//   stencil9 (R=4): B[i][j] = sum_{a,b<9} W[a][b] * A[i+a-4][j+b-4]
// Variants: naive (one thread per output, all reads from global memory) and
// tiled (a 32x32 output tile plus halo staged in shared memory, 32x8
// threads, 4 outputs per thread); against polycuda's translations of
// kernels/jacobi2d.c and kernels/stencil9.c.  jacobi2d is checked on the
// whole interior; stencil9 on 128 full rows (CPU cost), and every interior
// point is checked to have been written (outputs are poisoned with NaN).
#include "harness.h"
#include "generated_api.h"

#include <cmath>
#include <string>

namespace {

__constant__ double cW[81];

template <int R>
__device__ __forceinline__ double apply_global(const double *__restrict__ A, int n, int i, int j) {
  if (R == 1) {
    const double *a = A + (size_t)i * n + j;
    return 0.2 * (a[0] + a[-1] + a[1] + a[n] + a[-n]);
  } else {
    double s = 0;
#pragma unroll
    for (int a = 0; a < 9; a++)
#pragma unroll
      for (int b = 0; b < 9; b++)
        s += cW[a * 9 + b] * A[(size_t)(i + a - 4) * n + (j + b - 4)];
    return s;
  }
}

template <int R>
__global__ void stencil_naive(int n, double *__restrict__ B, const double *__restrict__ A) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= R && i < n - R && j >= R && j < n - R)
    B[(size_t)i * n + j] = apply_global<R>(A, n, i, j);
}

constexpr int TX = 32, TY = 32, THY = 8;

template <int R>
__global__ void __launch_bounds__(TX * THY)
stencil_tiled(int n, double *__restrict__ B, const double *__restrict__ A) {
  __shared__ double tile[TY + 2 * R][TX + 2 * R + 1];
  const int i0 = blockIdx.y * TY, j0 = blockIdx.x * TX;
  for (int r = threadIdx.y; r < TY + 2 * R; r += THY)
    for (int c = threadIdx.x; c < TX + 2 * R; c += TX) {
      int gi = i0 + r - R, gj = j0 + c - R;
      tile[r][c] = (gi >= 0 && gi < n && gj >= 0 && gj < n) ? A[(size_t)gi * n + gj] : 0.0;
    }
  __syncthreads();
  const int tx = threadIdx.x, j = j0 + tx;
#pragma unroll
  for (int q = 0; q < TY / THY; q++) {
    const int ty = threadIdx.y + q * THY, i = i0 + ty;
    if (i < R || i >= n - R || j < R || j >= n - R) continue;
    double s;
    if (R == 1) {
      s = 0.2 * (tile[ty + 1][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2] +
                 tile[ty + 2][tx + 1] + tile[ty][tx + 1]);
    } else {
      s = 0;
#pragma unroll
      for (int a = 0; a < 9; a++)
#pragma unroll
        for (int b = 0; b < 9; b++) s += cW[a * 9 + b] * tile[ty + a][tx + b];
    }
    B[(size_t)i * n + j] = s;
  }
}

template <int R>
void launch(const std::string &v, int n, double *B, const double *A) {
  if (v == "naive") {
    dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
    stencil_naive<R><<<grd, blk>>>(n, B, A);
  } else {
    dim3 blk(TX, THY), grd((n + TX - 1) / TX, (n + TY - 1) / TY);
    stencil_tiled<R><<<grd, blk>>>(n, B, A);
  }
  CK_LAUNCH();
}

// CPU reference of row i (interior columns) into ref[i*n + j].
double ref_point(int R, const double *A, const double *W, int n, int i, int j) {
  if (R == 1) {
    const double *a = A + (size_t)i * n + j;
    return 0.2 * (a[0] + a[-1] + a[1] + a[n] + a[-n]);
  }
  long double s = 0;
  for (int a = 0; a < 9; a++)
    for (int b = 0; b < 9; b++)
      s += (long double)W[a * 9 + b] * A[(size_t)(i + a - 4) * n + (j + b - 4)];
  return (double)s;
}

template <int R>
void run(Ctx &ctx, const char *group) {
  const int n = R == 1 ? GEN_J2_N : GEN_S9_N;
  const std::string size = std::to_string(n) + "^2";
  const size_t nn = (size_t)n * n, bytes = nn * sizeof(double);
  const double pts = (double)(n - 2 * R) * (n - 2 * R);
  const double flops = R == 1 ? 5.0 * pts : 162.0 * pts;
  const double traffic = 2.0 * bytes;
  double *hA = host_alloc<double>(nn), *hB = host_alloc<double>(nn);
  double hW[81];
  fill_random(hA, nn, 40 + R);
  fill_random(hW, 81, 50 + R);
  if (R == 4) CK(cudaMemcpyToSymbol(cW, hW, sizeof hW));
  // Rows to check: all interior rows (R=1), or 128 rows incl. the first
  // and last interior ones (R=4).
  std::vector<int> rows;
  if (R == 1) {
    for (int i = R; i < n - R; i++) rows.push_back(i);
  } else {
    Rng r(60);
    rows.push_back(R);
    rows.push_back(n - R - 1);
    for (int k = 0; k < 126; k++) rows.push_back(R + (int)r.below(n - 2 * R));
  }
  std::vector<double> ref(rows.size() * n);
  for (size_t k = 0; k < rows.size(); k++)
    for (int j = R; j < n - R; j++) ref[k * n + j] = ref_point(R, hA, hW, n, rows[k], j);
  auto check = [&](const double *out) {
    ErrAcc acc;
    for (size_t k = 0; k < rows.size(); k++)
      for (int j = R; j < n - R; j++) acc.add(out[(size_t)rows[k] * n + j], ref[k * n + j]);
    // Every interior point written (outputs were poisoned with NaN).
    for (size_t i = R; i < (size_t)(n - R); i++)
      for (size_t j = R; j < (size_t)(n - R); j++)
        if (!std::isfinite(out[i * n + j])) return (double)INFINITY;
    return acc.value();
  };

  double *dA = dev_alloc<double>(nn), *dB = dev_alloc<double>(nn);
  h2d(dA, hA, bytes);
  for (const char *vc : {"naive", "tiled32x32"}) {
    std::string v = vc;
    poison_device(dB, bytes);
    launch<R>(v, n, dB, dA);
    CK(cudaDeviceSynchronize());
    d2h(hB, dB, bytes);
    double err = check(hB);
    Timing t = time_device(ctx, 1, [&](int) { launch<R>(v, n, dB, dA); });
    report(ctx, group, v + "/kernel", size, t, flops, traffic, err, kTolDouble);
    Timing te = time_host(ctx, [&]() {
      double *a = dev_alloc<double>(nn), *b = dev_alloc<double>(nn);
      h2d(a, hA, bytes);
      launch<R>(v, n, b, a);
      d2h(hB, b, bytes);
      CK(cudaFree(a));
      CK(cudaFree(b));
    });
    report(ctx, group, v + "/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  {
    auto call = [&]() {
      if (R == 1)
        bench_jacobi2d(n, (double(*)[GEN_J2_N])hB, (double(*)[GEN_J2_N])hA);
      else
        bench_stencil9(n, (double(*)[GEN_S9_N])hB, (double(*)[GEN_S9_N])hA,
                       (double(*)[9])hW);
    };
    poison_host(hB, nn);
    call();
    double err = check(hB);
    Timing te = time_host(ctx, call);
    report(ctx, group, "polycuda/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFreeHost(hA));
  CK(cudaFreeHost(hB));
}

}  // namespace

void group_stencil(Ctx &ctx) {
  if (ctx.wants("jacobi2d")) run<1>(ctx, "jacobi2d");
  if (ctx.wants("stencil9")) run<4>(ctx, "stencil9");
}
