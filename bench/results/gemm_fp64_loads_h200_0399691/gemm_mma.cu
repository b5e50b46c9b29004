// Experiment: gemm (C = alpha * A * B + beta * C, double, n x n, row-major)
// with the block tile of polycuda's printed kernel (64 x 128 points, 256
// threads, A and B staged in shared memory, alpha folded into A's tile) and
// each warp's 32 x 32 points accumulated by FP64 tensor-core MMAs (wmma
// 8x8x4 fragments). Checked against a k-ordered reference kernel; prints the
// median and minimum of REPS timed launches (CUDA events).
//   gemm_mma N [REPS] [BK]
#include <mma.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace nvcuda;

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)

template <int BK, int MINB>
__global__ void __launch_bounds__(256, MINB)
gemmMma(double *C, const double *A, const double *B, int n, double alpha, double beta) {
  constexpr int BI = 64, BJ = 128, PA = 4, PB = 4;
  __shared__ __align__(32) double As[BI][BK + PA];
  __shared__ __align__(32) double Bs[BK][BJ + PB];
  int t = threadIdx.x, warp = t / 32, wi = warp / 4, wj = warp % 4;
  long i0 = (long)blockIdx.y * BI, j0 = (long)blockIdx.x * BJ;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc[4][4];
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      wmma::load_matrix_sync(acc[a][b], C + (i0 + wi * 32 + a * 8) * n + j0 + wj * 32 + b * 8, n, wmma::mem_row_major);
      for (int e = 0; e < acc[a][b].num_elements; ++e)
        acc[a][b].x[e] *= beta;
    }
  for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
    for (int r = 0; r < BI * BK / 256; ++r) {
      int e = t + 256 * r, row = e / BK, col = e % BK;
      As[row][col] = alpha * A[(i0 + row) * n + k0 + col];
    }
#pragma unroll
    for (int r = 0; r < BK * BJ / 256; ++r) {
      int e = t + 256 * r, row = e / BJ, col = e % BJ;
      Bs[row][col] = B[(long)(k0 + row) * n + j0 + col];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 4) {
      wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb[4];
      for (int a = 0; a < 4; ++a)
        wmma::load_matrix_sync(fa[a], &As[wi * 32 + a * 8][kk], BK + PA);
      for (int b = 0; b < 4; ++b)
        wmma::load_matrix_sync(fb[b], &Bs[kk][wj * 32 + b * 8], BJ + PB);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          wmma::mma_sync(acc[a][b], fa[a], fb[b], acc[a][b]);
    }
    __syncthreads();
  }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      wmma::store_matrix_sync(C + (i0 + wi * 32 + a * 8) * n + j0 + wj * 32 + b * 8, acc[a][b], n, wmma::mem_row_major);
}

__global__ void reference(double *C, const double *A, const double *B, int n, double alpha, double beta) {
  long i = blockIdx.y, j = blockIdx.x * 256L + threadIdx.x;
  if (j >= n) return;
  double c = C[i * n + j] * beta;
  for (long k = 0; k < n; ++k)
    c += alpha * A[i * n + k] * B[k * n + j];
  C[i * n + j] = c;
}

template <int BK, int MINB> float timeMma(int n, int reps, double *C, const double *A, const double *B, const std::vector<double> &c0, std::vector<double> &out) {
  dim3 grid(n / 128, n / 64);
  std::vector<float> ms;
  cudaEvent_t s, e;
  CHECK(cudaEventCreate(&s)); CHECK(cudaEventCreate(&e));
  for (int r = 0; r < reps + 1; ++r) {
    CHECK(cudaMemcpy(C, c0.data(), c0.size() * 8, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(s));
    gemmMma<BK, MINB><<<grid, 256>>>(C, A, B, n, 1.5, 1.2);
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    float m; CHECK(cudaEventElapsedTime(&m, s, e));
    if (r) ms.push_back(m);
  }
  CHECK(cudaMemcpy(out.data(), C, out.size() * 8, cudaMemcpyDeviceToHost));
  std::sort(ms.begin(), ms.end());
  printf("mma BK=%d blocks/SM>=%d n=%d median %.3f ms min %.3f ms\n", BK, MINB, n, ms[ms.size() / 2], ms[0]);
  return ms[ms.size() / 2];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096, reps = argc > 2 ? atoi(argv[2]) : 10;
  size_t count = (size_t)n * n;
  std::vector<double> a(count), b(count), c0(count), ref(count), out(count);
  for (size_t i = 0; i < (size_t)n; ++i)
    for (size_t j = 0; j < (size_t)n; ++j) {
      a[i * n + j] = (double)(i * j % n) / n;
      b[i * n + j] = (double)(i * (j + 2) % n) / n;
      c0[i * n + j] = (double)((i * j + 1) % n) / n;
    }
  double *A, *B, *C;
  CHECK(cudaMalloc(&A, count * 8)); CHECK(cudaMalloc(&B, count * 8)); CHECK(cudaMalloc(&C, count * 8));
  CHECK(cudaMemcpy(A, a.data(), count * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, b.data(), count * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(C, c0.data(), count * 8, cudaMemcpyHostToDevice));
  reference<<<dim3((n + 255) / 256, n), 256>>>(C, A, B, n, 1.5, 1.2);
  CHECK(cudaMemcpy(ref.data(), C, count * 8, cudaMemcpyDeviceToHost));
  for (int v = 0; v < 3; ++v) {
    int bk = v == 2 ? 8 : 16;
    if (v == 0) timeMma<16, 2>(n, reps, C, A, B, c0, out);
    else if (v == 1) timeMma<16, 1>(n, reps, C, A, B, c0, out);
    else timeMma<8, 2>(n, reps, C, A, B, c0, out);
    double worst = 0;
    for (size_t i = 0; i < count; ++i)
      worst = std::max(worst, std::fabs(out[i] - ref[i]) / std::max(1e-300, std::fabs(ref[i])));
    printf("mma BK=%d max relative difference from the k-ordered reference: %.3e\n", bk, worst);
  }
  return 0;
}
