// Experiment: seidel-2d (PolyBench LARGE, n = 2000, 500 steps) as a tiled
// wavefront against one launch per wavefront 4t + 2i + j.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

static const int N = 2000, T = 500;

__global__ void wave(double *A, int n, int tsteps, int c) {
  int t = blockIdx.x * 32 + threadIdx.x;   // x along t
  int i = blockIdx.y * 8 + threadIdx.y;
  int j = c - 4 * t - 2 * i;
  if (t < tsteps && i >= 1 && i <= n - 2 && j >= 1 && j <= n - 2)
    A[i * N + j] = (A[(i-1)*N + j-1] + A[(i-1)*N + j] + A[(i-1)*N + j+1] + A[i*N + j-1] + A[i*N + j] + A[i*N + j+1] + A[(i+1)*N + j-1] + A[(i+1)*N + j] + A[(i+1)*N + j+1]) / 9.0;
}

// Band (w = 4t + 2i + j, t, u = t + i); tiles Tw x TT x TU; block (P, U)
// runs W = s - P - U.
__global__ void tiled(double *A, int n, int tsteps, int s, int Tw, int p0, int u0) {
  int TT = blockDim.x, TU = blockDim.y;
  int P = p0 + blockIdx.x, U = u0 + blockIdx.y;
  int W = s - P - U;
  if (W < 0) return;
  // The block's steps with a live point: j = W Tw + q - 2(t + u) in [1, n - 2].
  int lo = 2 * (P * TT + U * TU), hi = 2 * (P * TT + TT - 1 + U * TU + TU - 1);
  int q0 = max(0, 1 + lo - W * Tw), q1 = min(Tw - 1, n - 2 + hi - W * Tw);
  int t = P * TT + threadIdx.x;
  int u = U * TU + threadIdx.y;
  int i = u - t;
  bool live = t < tsteps && i >= 1 && i <= n - 2;
  int base = W * Tw - 4 * t - 2 * i;
  for (int q = q0; q <= q1; ++q) {
    int j = base + q;
    if (live && j >= 1 && j <= n - 2)
      A[i * N + j] = (A[(i-1)*N + j-1] + A[(i-1)*N + j] + A[(i-1)*N + j+1] + A[i*N + j-1] + A[i*N + j] + A[i*N + j+1] + A[(i+1)*N + j-1] + A[(i+1)*N + j] + A[(i+1)*N + j+1]) / 9.0;
    __syncthreads();
  }
}


// The tile's neighbourhood in shared memory, skewed: row i - (imin - 1),
// column j + 2i - cmin; written elements go back at the end.
template <int TW, int TT, int TU, int PAD>
__global__ void __launch_bounds__(TT * TU) staged(double *A, int n, int tsteps, int s, int u0blk) {
  constexpr int R = TT + TU + 1, C = TW + 4 * TT + 3, PITCH = C + PAD;
  __shared__ double tile[R * PITCH];
  int P = blockIdx.x, U = u0blk + blockIdx.y;
  int W = s - P - U;
  if (W < 0) return;
  int t0 = P * TT, u0 = U * TU;
  int lo = 2 * (t0 + u0), hi = 2 * (t0 + TT - 1 + u0 + TU - 1);
  int q0 = max(0, 1 + lo - W * TW), q1 = min(TW - 1, n - 2 + hi - W * TW);
  if (q0 > q1) return;
  int imin = u0 - t0 - TT + 1, imax = u0 - t0 + TU - 1;
  if (imax < 1 || imin > n - 2 || t0 >= tsteps) return;
  int cmin = W * TW - 4 * (t0 + TT - 1) - 3;
  int tid = threadIdx.y * TT + threadIdx.x;
  for (int idx = tid; idx < R * C; idx += TT * TU) {
    int r = idx / C, c = idx - r * C;
    int i = imin - 1 + r, j = cmin + c - 2 * i;
    if (i >= 0 && i < n && j >= 0 && j < n)
      tile[r * PITCH + c] = A[i * N + j];
  }
  __syncthreads();
  int t = t0 + threadIdx.x, u = u0 + threadIdx.y, i = u - t;
  bool live = t < tsteps && i >= 1 && i <= n - 2;
  int r = i - imin + 1;
  int cbase = W * TW - 4 * t - cmin; // column of step 0
  int jbase = W * TW - 4 * t - 2 * i;
  for (int q = q0; q <= q1; ++q) {
    int j = jbase + q;
    if (live && j >= 1 && j <= n - 2) {
      double *p = &tile[r * PITCH + cbase + q];
      // (i-1, j+d): column c - 2 + d; (i+1, j+d): c + 2 + d
      p[0] = (p[-PITCH - 3] + p[-PITCH - 2] + p[-PITCH - 1] + p[-1] + p[0] + p[1] + p[PITCH + 1] + p[PITCH + 2] + p[PITCH + 3]) / 9.0;
    }
    __syncthreads();
  }
  for (int idx = tid; idx < R * C; idx += TT * TU) {
    int r = idx / C, c = idx - r * C;
    int i = imin - 1 + r, j = cmin + c - 2 * i;
    if (i < 1 || i > n - 2 || i < imin || i > imax)
      continue;
    int tlo = max(t0, u0 - i), thi = min(min(t0 + TT - 1, u0 + TU - 1 - i), tsteps - 1);
    if (tlo > thi)
      continue;
    int jlo = max(1, W * TW + q0 - 2 * i - 4 * thi), jhi = min(n - 2, W * TW + q1 - 2 * i - 4 * tlo);
    if (j >= jlo && j <= jhi)
      A[i * N + j] = tile[r * PITCH + c];
  }
}

template <int TW, int TT, int TU, int PAD>
void runStaged(double *A, const std::vector<double> &h, const std::vector<double> &ref, int n, int tsteps, int cmax, cudaEvent_t e0, cudaEvent_t e1) {
  size_t bytes = sizeof(double) * N * N;
  int Pn = (tsteps - 1) / TT + 1;
  int Un = (tsteps - 1 + n - 2) / TU + 1;
  int Wn = cmax / TW + 1;
  int smax = (Wn - 1) + (Pn - 1) + (Un - 1);
  std::vector<float> times;
  for (int rep = 0; rep < 3; ++rep) {
    CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaEventRecord(e0);
    for (int s = 0; s <= smax; ++s) {
      int u0 = std::max(0, s - (Wn - 1) - (Pn - 1));
      int u1 = std::min(Un - 1, s);
      staged<TW, TT, TU, PAD><<<dim3(Pn, u1 - u0 + 1), dim3(TT, TU)>>>(A, n, tsteps, s, u0);
    }
    cudaEventRecord(e1);
    CK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    times.push_back(ms);
  }
  CK(cudaGetLastError());
  std::vector<double> out(N * N);
  CK(cudaMemcpy(out.data(), A, bytes, cudaMemcpyDeviceToHost));
  bool match = memcmp(out.data(), ref.data(), bytes) == 0;
  std::sort(times.begin(), times.end());
  printf("staged_pad%d,%d,%d,%d,%d,%.3f,%.3f,%d\n", PAD, TW, TT, TU, smax + 1, times[1], times[0], match);
}

// Same with the block's first (earliest) useful step and last computed,
// skipping steps where no thread of the block is live.
int main(int argc, char **argv) {
  size_t bytes = sizeof(double) * N * N;
  std::vector<double> h(N * N), ref(N * N), out(N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      h[i * N + j] = ((double)i * (j + 2) + 2) / N;
  double *A;
  CK(cudaMalloc(&A, bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  int n = N, tsteps = T;
  int cmax = 4 * (tsteps - 1) + 2 * (n - 2) + (n - 2);
  // Baseline.
  std::vector<float> base;
  for (int rep = 0; rep < 3; ++rep) {
    CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaEventRecord(e0);
    dim3 grid((tsteps + 31) / 32, (n + 7) / 8);
    for (int c = 7; c <= cmax; ++c)
      wave<<<grid, dim3(32, 8)>>>(A, n, tsteps, c);
    cudaEventRecord(e1);
    CK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    base.push_back(ms);
  }
  CK(cudaMemcpy(ref.data(), A, bytes, cudaMemcpyDeviceToHost));
  std::sort(base.begin(), base.end());
  printf("variant,Tw,TT,TU,launches,median_ms,min_ms,match\n");
  printf("wave,1,32,8,%d,%.3f,%.3f,1\n", cmax - 6, base[1], base[0]);
  int configs[][3] = {{32,16,16},{32,8,32},{64,8,32}};
  for (auto &cfg : configs) {
    int Tw = cfg[0], TT = cfg[1], TU = cfg[2];
    int Pn = (tsteps - 1) / TT + 1;
    int Un = (tsteps - 1 + n - 2) / TU + 1;
    int Wn = cmax / Tw + 1;
    int smax = (Wn - 1) + (Pn - 1) + (Un - 1);
    std::vector<float> times;
    for (int rep = 0; rep < 3; ++rep) {
      CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
      cudaEventRecord(e0);
      for (int s = 0; s <= smax; ++s) {
        // P + U in [s - (Wn - 1), s]
        int u0 = std::max(0, s - (Wn - 1) - (Pn - 1));
        int u1 = std::min(Un - 1, s);
        dim3 grid(Pn, u1 - u0 + 1);
        tiled<<<grid, dim3(TT, TU)>>>(A, n, tsteps, s, Tw, 0, u0);
      }
      cudaEventRecord(e1);
      CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      times.push_back(ms);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), A, bytes, cudaMemcpyDeviceToHost));
    bool match = memcmp(out.data(), ref.data(), bytes) == 0;
    std::sort(times.begin(), times.end());
    printf("tiled,%d,%d,%d,%d,%.3f,%.3f,%d\n", Tw, TT, TU, smax + 1, times[1], times[0], match);
  }
  runStaged<32, 8, 32, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 1>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 2>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 3>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 4>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 5>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 32, 7>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<64, 8, 32, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<16, 8, 32, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 16, 16, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 16, 16, 3>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 4, 64, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<64, 4, 64, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<64, 8, 16, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 8, 16, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  runStaged<32, 16, 32, 0>(A, h, ref, n, tsteps, cmax, e0, e1);
  return 0;
}
