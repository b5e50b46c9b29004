// Experiment (bench/results/kernels_h100_62f0e45): which code shape makes a 9x9 stencil beat the tiled32x32 kernel.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <functional>
#define N 8192
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s line %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

__constant__ double cW[81];

// K0: polycuda today (W shared, A global, loops not unrolled).
__global__ void k0(const double *__restrict__ W, const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  double s;
  __shared__ double Ws[81];
  if ((n >= ((8 * b0) + 5)) && (n >= ((32 * b1) + 5))) {
    if (t1 <= 8) for (long k1 = t0; k1 <= 8; k1 += 8) Ws[k1 * 9 + t1] = W[k1 * 9 + t1];
    __syncthreads();
    if (n >= 8 * b0 + t0 + 5 && 8 * b0 + t0 >= 4 && n >= 32 * b1 + t1 + 5 && 32 * b1 + t1 >= 4) {
      s = 0.0;
      for (long k3 = 0; k3 <= 8; k3 += 1)
        for (long k4 = 0; k4 <= 8; k4 += 1)
          s += Ws[k3 * 9 + k4] * A[(8 * b0 + t0 + k3 - 4) * N + (32 * b1 + t1 + k4 - 4)];
      B[(8 * b0 + t0) * N + 32 * b1 + t1] = s;
    }
    __syncthreads();
  }
}

// K6: K0 with the loops unrolled.
__global__ void k6(const double *__restrict__ W, const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  double s;
  __shared__ double Ws[81];
  if ((n >= ((8 * b0) + 5)) && (n >= ((32 * b1) + 5))) {
    if (t1 <= 8) for (long k1 = t0; k1 <= 8; k1 += 8) Ws[k1 * 9 + t1] = W[k1 * 9 + t1];
    __syncthreads();
    if (n >= 8 * b0 + t0 + 5 && 8 * b0 + t0 >= 4 && n >= 32 * b1 + t1 + 5 && 32 * b1 + t1 >= 4) {
      s = 0.0;
#pragma unroll
      for (long k3 = 0; k3 <= 8; k3 += 1)
#pragma unroll
        for (long k4 = 0; k4 <= 8; k4 += 1)
          s += Ws[k3 * 9 + k4] * A[(8 * b0 + t0 + k3 - 4) * N + (32 * b1 + t1 + k4 - 4)];
      B[(8 * b0 + t0) * N + 32 * b1 + t1] = s;
    }
    __syncthreads();
  }
}

// K1: W constant, A global, unrolled.
__global__ void k1(const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  if (n >= 8 * b0 + t0 + 5 && 8 * b0 + t0 >= 4 && n >= 32 * b1 + t1 + 5 && 32 * b1 + t1 >= 4) {
    double s = 0.0;
#pragma unroll
    for (long k3 = 0; k3 <= 8; k3 += 1)
#pragma unroll
      for (long k4 = 0; k4 <= 8; k4 += 1)
        s += cW[k3 * 9 + k4] * A[(8 * b0 + t0 + k3 - 4) * N + (32 * b1 + t1 + k4 - 4)];
    B[(8 * b0 + t0) * N + 32 * b1 + t1] = s;
  }
}

// K1n: W constant, A global, NOT unrolled.
__global__ void k1n(const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  if (n >= 8 * b0 + t0 + 5 && 8 * b0 + t0 >= 4 && n >= 32 * b1 + t1 + 5 && 32 * b1 + t1 >= 4) {
    double s = 0.0;
#pragma unroll 1
    for (long k3 = 0; k3 <= 8; k3 += 1)
      for (long k4 = 0; k4 <= 8; k4 += 1)
        s += cW[k3 * 9 + k4] * A[(8 * b0 + t0 + k3 - 4) * N + (32 * b1 + t1 + k4 - 4)];
    B[(8 * b0 + t0) * N + 32 * b1 + t1] = s;
  }
}

// K2: W constant, A staged once per block (32 x 8 outputs, 16 x 40 tile), unrolled.
template <int PAD>
__global__ void k2(const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  __shared__ double As[16][40 + PAD];
  long o0 = 8 * b0, o1 = 32 * b1;  // first row/col of the box (output - 4 + 4 offset)
  for (long r = t0; r < 16; r += 8)
    for (long c = t1; c < 40; c += 32) {
      long gi = o0 + r, gj = o1 + c;
      if (gi < n && gj < n) As[r][c] = A[gi * N + gj];
    }
  __syncthreads();
  long i = 8 * b0 + t0 + 4, j = 32 * b1 + t1 + 4;
  if (i < n - 4 && j < n - 4) {
    double s = 0.0;
#pragma unroll
    for (long k3 = 0; k3 <= 8; k3 += 1)
#pragma unroll
      for (long k4 = 0; k4 <= 8; k4 += 1)
        s += cW[k3 * 9 + k4] * As[t0 + k3][t1 + k4];
    B[i * N + j] = s;
  }
}

// K3: W constant, A global, 4 consecutive rows per thread (32 x 32 outputs per block).
__global__ void k3(const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  long i0 = 32 * b0 + 4 * t0 + 4, j = 32 * b1 + t1 + 4;
  if (j >= n - 4) return;
  double s[4] = {0, 0, 0, 0};
#pragma unroll
  for (int u = 0; u < 4; u++)
#pragma unroll
    for (long k3 = 0; k3 <= 8; k3 += 1)
#pragma unroll
      for (long k4 = 0; k4 <= 8; k4 += 1)
        if (i0 + u < n - 4) s[u] += cW[k3 * 9 + k4] * A[(i0 + u + k3 - 4) * N + (j + k4 - 4)];
#pragma unroll
  for (int u = 0; u < 4; u++)
    if (i0 + u < n - 4) B[(i0 + u) * N + j] = s[u];
}

// K4: W constant, A shared 40 x 40, 4 consecutive rows per thread.
__global__ void k4(const double *__restrict__ A, double *__restrict__ B, long n) {
  const long b0 = blockIdx.y, t0 = threadIdx.y, b1 = blockIdx.x, t1 = threadIdx.x;
  __shared__ double As[40][41];
  long o0 = 32 * b0, o1 = 32 * b1;
  for (long r = t0; r < 40; r += 8)
    for (long c = t1; c < 40; c += 32) {
      long gi = o0 + r, gj = o1 + c;
      if (gi < n && gj < n) As[r][c] = A[gi * N + gj];
    }
  __syncthreads();
  long i0 = 32 * b0 + 4 * t0 + 4, j = 32 * b1 + t1 + 4;
  if (j >= n - 4) return;
  double s[4] = {0, 0, 0, 0};
#pragma unroll
  for (int u = 0; u < 4; u++)
#pragma unroll
    for (long k3 = 0; k3 <= 8; k3 += 1)
#pragma unroll
      for (long k4 = 0; k4 <= 8; k4 += 1)
        s[u] += cW[k3 * 9 + k4] * As[4 * t0 + u + k3][t1 + k4];
#pragma unroll
  for (int u = 0; u < 4; u++)
    if (i0 + u < n - 4) B[(i0 + u) * N + j] = s[u];
}

// T: the hand-written tiled32x32 (bench/baselines/stencil.cu).
__global__ void __launch_bounds__(256) tiled(int n, double *__restrict__ B, const double *__restrict__ A) {
  const int R = 4;
  __shared__ double tile[32 + 2 * R][32 + 2 * R + 1];
  const int i0 = blockIdx.y * 32, j0 = blockIdx.x * 32;
  for (int r = threadIdx.y; r < 32 + 2 * R; r += 8)
    for (int c = threadIdx.x; c < 32 + 2 * R; c += 32) {
      int gi = i0 + r - R, gj = j0 + c - R;
      tile[r][c] = (gi >= 0 && gi < n && gj >= 0 && gj < n) ? A[(size_t)gi * n + gj] : 0.0;
    }
  __syncthreads();
  const int tx = threadIdx.x, j = j0 + tx;
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int ty = threadIdx.y + q * 8, i = i0 + ty;
    if (i < R || i >= n - R || j < R || j >= n - R) continue;
    double s = 0;
#pragma unroll
    for (int a = 0; a < 9; a++)
#pragma unroll
      for (int b = 0; b < 9; b++) s += cW[a * 9 + b] * tile[ty + a][tx + b];
    B[(size_t)i * n + j] = s;
  }
}

template <class F>
float timeit(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  f(); f();
  CK(cudaDeviceSynchronize());
  std::vector<float> v;
  for (int r = 0; r < 15; r++) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); v.push_back(ms * 1000);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  long n = N;
  size_t nn = (size_t)N * N;
  std::vector<double> hA(nn), hW(81);
  for (size_t e = 0; e < nn; e++) hA[e] = (double)((e * 2654435761u) % 1000) / 1000.0;
  for (int e = 0; e < 81; e++) hW[e] = 1.0 / (1 + e);
  double *A, *B, *W, *R;
  CK(cudaMalloc(&A, nn * 8)); CK(cudaMalloc(&B, nn * 8)); CK(cudaMalloc(&R, nn * 8)); CK(cudaMalloc(&W, 81 * 8));
  CK(cudaMemcpy(A, hA.data(), nn * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(W, hW.data(), 81 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(cW, hW.data(), 81 * 8));
  dim3 b(32, 8), g8((n - 8 + 31) / 32, (n - 8 + 7) / 8), g32((n + 31) / 32, (n + 31) / 32), g32i((n - 8 + 31) / 32, (n - 8 + 31) / 32);
  auto T = [&] { tiled<<<g32, b>>>(n, R, A); };
  T(); CK(cudaDeviceSynchronize());
  std::vector<double> ref(nn), out(nn);
  CK(cudaMemcpy(ref.data(), R, nn * 8, cudaMemcpyDeviceToHost));
  auto check = [&](const char *name, float us) {
    CK(cudaMemcpy(out.data(), B, nn * 8, cudaMemcpyDeviceToHost));
    double err = 0;
    for (long i = 4; i < n - 4; i++) for (long j = 4; j < n - 4; j++)
      err = std::max(err, std::fabs(out[i * n + j] - ref[i * n + j]) / (std::fabs(ref[i * n + j]) + 1e-30));
    printf("%-28s %9.1f us  maxrel %.2e\n", name, us, err);
  };
  float tt = timeit(T);
  printf("%-28s %9.1f us\n", "tiled32x32", tt);
  struct V { const char *name; std::function<void()> f; };
  CK(cudaMemset(B, 0, nn * 8)); float t;
  t = timeit([&] { k0<<<g8, b>>>(W, A, B, n); }); check("k0 today", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k6<<<g8, b>>>(W, A, B, n); }); check("k6 unrolled", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k1n<<<g8, b>>>(A, B, n); }); check("k1n const W", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k1<<<g8, b>>>(A, B, n); }); check("k1 const W unrolled", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k2<0><<<g8, b>>>(A, B, n); }); check("k2 +shared 16x40", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k2<1><<<g8, b>>>(A, B, n); }); check("k2 +shared 16x41", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k3<<<g32i, b>>>(A, B, n); }); check("k3 global 4 rows", t);
  CK(cudaMemset(B, 0, nn * 8)); t = timeit([&] { k4<<<g32i, b>>>(A, B, n); }); check("k4 shared 4 rows", t);
  t = timeit(T); printf("%-28s %9.1f us\n", "tiled32x32 again", t);
  return 0;
}
