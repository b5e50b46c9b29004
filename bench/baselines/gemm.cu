// gemm.cu -- hand-written DGEMM baselines, C = alpha*A*B + beta*C on square
// row-major n x n doubles, against polycuda's translation of
// bench/runner/kernels/gemm.c and cuBLAS DGEMM (plus cuBLAS SGEMM on float
// copies of the inputs as a throughput reference).  Variants: naive (one
// thread per output), shared-memory tiled 16x16 and 32x32, register-tiled
// (64x64 block tile, 16x16 threads, 4x4 outputs per thread, k-step 16).
// Checked on a random sample of outputs against a CPU dot product.
#include "harness.h"
#include "generated_api.h"

#include <cmath>
#include <cstring>
#include <string>

namespace {

__global__ void gemm_naive(int n, double alpha, double beta, double *__restrict__ C,
                           const double *__restrict__ A, const double *__restrict__ B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  double s = 0;
  for (int k = 0; k < n; k++) s += A[(size_t)i * n + k] * B[(size_t)k * n + j];
  C[(size_t)i * n + j] = alpha * s + beta * C[(size_t)i * n + j];
}

template <int T>
__global__ void gemm_tiled(int n, double alpha, double beta, double *__restrict__ C,
                           const double *__restrict__ A, const double *__restrict__ B) {
  __shared__ double As[T][T];
  __shared__ double Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int j = blockIdx.x * T + tx, i = blockIdx.y * T + ty;
  double s = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = (i < n && k0 + tx < n) ? A[(size_t)i * n + k0 + tx] : 0.0;
    Bs[ty][tx] = (k0 + ty < n && j < n) ? B[(size_t)(k0 + ty) * n + j] : 0.0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; k++) s += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (i < n && j < n) C[(size_t)i * n + j] = alpha * s + beta * C[(size_t)i * n + j];
}

// 64x64 tile per block of 16x16 threads; thread (tx,ty) owns rows
// ty+16r and columns tx+16c (r,c < 4).  Requires n % 64 == 0.
constexpr int RT_BM = 64, RT_BK = 16;
__global__ void __launch_bounds__(256)
gemm_regtile(int n, double alpha, double beta, double *__restrict__ C,
             const double *__restrict__ A, const double *__restrict__ B) {
  __shared__ double As[RT_BK][RT_BM + 1];  // A tile, transposed (k, row)
  __shared__ double Bs[RT_BK][RT_BM];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * RT_BM, col0 = blockIdx.x * RT_BM;
  double acc[4][4] = {};
  for (int k0 = 0; k0 < n; k0 += RT_BK) {
#pragma unroll
    for (int l = 0; l < 4; l++) {
      int idx = tid + 256 * l;
      int r = idx / RT_BK, k = idx % RT_BK;
      As[k][r] = A[(size_t)(row0 + r) * n + k0 + k];
      int kb = idx / RT_BM, c = idx % RT_BM;
      Bs[kb][c] = B[(size_t)(k0 + kb) * n + col0 + c];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < RT_BK; k++) {
      double a[4], b[4];
#pragma unroll
      for (int r = 0; r < 4; r++) a[r] = As[k][ty + 16 * r];
#pragma unroll
      for (int c = 0; c < 4; c++) b[c] = Bs[k][tx + 16 * c];
#pragma unroll
      for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++) acc[r][c] += a[r] * b[c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; r++)
#pragma unroll
    for (int c = 0; c < 4; c++) {
      size_t o = (size_t)(row0 + ty + 16 * r) * n + col0 + tx + 16 * c;
      C[o] = alpha * acc[r][c] + beta * C[o];
    }
}

const double kAlpha = 1.5, kBeta = 1.2;

// Row-major C = alpha*A*B + beta*C through column-major cuBLAS:
// C^T = alpha*B^T*A^T + beta*C^T.
void cublas_dgemm(Ctx &ctx, int n, double *C, const double *A, const double *B) {
  CKB(cublasDgemm(ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &kAlpha, B, n,
                  A, n, &kBeta, C, n));
}

void launch(Ctx &ctx, const std::string &v, int n, double *C, const double *A,
            const double *B) {
  if (v == "naive") {
    dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
    gemm_naive<<<grd, blk>>>(n, kAlpha, kBeta, C, A, B);
  } else if (v == "tiled16") {
    dim3 blk(16, 16), grd((n + 15) / 16, (n + 15) / 16);
    gemm_tiled<16><<<grd, blk>>>(n, kAlpha, kBeta, C, A, B);
  } else if (v == "tiled32") {
    dim3 blk(32, 32), grd((n + 31) / 32, (n + 31) / 32);
    gemm_tiled<32><<<grd, blk>>>(n, kAlpha, kBeta, C, A, B);
  } else if (v == "regtile64x4x4") {
    dim3 blk(16, 16), grd(n / RT_BM, n / RT_BM);
    gemm_regtile<<<grd, blk>>>(n, kAlpha, kBeta, C, A, B);
  } else if (v == "cublas_dgemm") {
    cublas_dgemm(ctx, n, C, A, B);
    return;
  }
  CK_LAUNCH();
}

// Sampled check: nsamp random (i,j) plus the four corners.
struct Sample {
  std::vector<size_t> i, j;
  std::vector<double> ref;
};

Sample make_sample(int n, const double *A, const double *B, const double *C0,
                   uint64_t seed) {
  Sample s;
  Rng r(seed);
  const int nsamp = 2048;
  for (int t = 0; t < nsamp + 4; t++) {
    size_t i = t < 4 ? (t & 1) * (n - 1) : r.below(n);
    size_t j = t < 4 ? (t >> 1) * (n - 1) : r.below(n);
    long double acc = 0;
    for (int k = 0; k < n; k++) acc += (long double)A[i * n + k] * B[(size_t)k * n + j];
    s.i.push_back(i);
    s.j.push_back(j);
    s.ref.push_back((double)(kAlpha * acc + kBeta * (long double)C0[i * n + j]));
  }
  return s;
}

double sample_err(const Sample &s, int n, const double *C) {
  ErrAcc a;
  for (size_t t = 0; t < s.i.size(); t++) a.add(C[s.i[t] * n + s.j[t]], s.ref[t]);
  return a.value();
}

void run_size(Ctx &ctx, int n) {
  const std::string size = std::to_string(n) + "^3";
  const size_t nn = (size_t)n * n, bytes = nn * sizeof(double);
  const double flops = 2.0 * n * (double)n * n;
  const double traffic = 4.0 * bytes;  // A, B, C read; C written
  double *hA = host_alloc<double>(nn), *hB = host_alloc<double>(nn);
  double *hC0 = host_alloc<double>(nn), *hC = host_alloc<double>(nn);
  fill_random(hA, nn, 11 + n);
  fill_random(hB, nn, 12 + n);
  fill_random(hC0, nn, 13 + n);
  Sample smp = make_sample(n, hA, hB, hC0, 14 + n);

  const int copies = copies_for(ctx, 3 * bytes);
  std::vector<double *> dA(copies), dB(copies), dC(copies);
  for (int c = 0; c < copies; c++) {
    dA[c] = dev_alloc<double>(nn);
    dB[c] = dev_alloc<double>(nn);
    dC[c] = dev_alloc<double>(nn);
    h2d(dA[c], hA, bytes);
    h2d(dB[c], hB, bytes);
  }

  const char *variants[] = {"naive", "tiled16", "tiled32", "regtile64x4x4",
                            "cublas_dgemm"};
  for (const char *vc : variants) {
    std::string v = vc;
    // Correctness: fresh C, one run, sampled comparison.
    h2d(dC[0], hC0, bytes);
    launch(ctx, v, n, dC[0], dA[0], dB[0]);
    CK(cudaDeviceSynchronize());
    d2h(hC, dC[0], bytes);
    double err = sample_err(smp, n, hC);
    // C grows by beta per timed run; harmless for timing.
    Timing t = time_device(ctx, copies, [&](int c) {
      launch(ctx, v, n, dC[c], dA[c], dB[c]);
    });
    report(ctx, "gemm", v + "/kernel", size, t, flops, traffic, err, kTolDouble);
    // End to end: allocate, copy A, B, C in, run, copy C out, free.
    Timing te = time_host(ctx, [&]() {
      double *a = dev_alloc<double>(nn), *b = dev_alloc<double>(nn),
             *cc = dev_alloc<double>(nn);
      h2d(a, hA, bytes);
      h2d(b, hB, bytes);
      h2d(cc, hC0, bytes);
      launch(ctx, v, n, cc, a, b);
      d2h(hC, cc, bytes);
      CK(cudaFree(a));
      CK(cudaFree(b));
      CK(cudaFree(cc));
    });
    report(ctx, "gemm", v + "/e2e", size, te, flops, traffic, err, kTolDouble);
  }

  // polycuda, end to end (its only mode).
  {
    auto call = [&]() {
      if (n == 2048)
        bench_gemm_2048(n, n, n, kAlpha, kBeta, (double(*)[2048])hC,
                        (double(*)[2048])hA, (double(*)[2048])hB);
#ifdef POLYCUDA_BENCH_GEMM_4096
      else if (n == 4096)
        bench_gemm_4096(n, n, n, kAlpha, kBeta, (double(*)[4096])hC,
                        (double(*)[4096])hA, (double(*)[4096])hB);
#endif
    };
    memcpy(hC, hC0, bytes);
    call();
    double err = sample_err(smp, n, hC);
    Timing te = time_host(ctx, call);  // C keeps growing by beta; harmless
    report(ctx, "gemm", "polycuda/e2e", size, te, flops, traffic, err, kTolDouble);
  }

  // cuBLAS SGEMM on float copies (reference throughput; float tolerance).
  {
    float *fA = host_alloc<float>(nn), *fB = host_alloc<float>(nn),
          *fC = host_alloc<float>(nn);
    for (size_t x = 0; x < nn; x++) {
      fA[x] = (float)hA[x];
      fB[x] = (float)hB[x];
      fC[x] = (float)hC0[x];
    }
    float *dfA = dev_alloc<float>(nn), *dfB = dev_alloc<float>(nn),
          *dfC = dev_alloc<float>(nn);
    h2d(dfA, fA, nn * 4);
    h2d(dfB, fB, nn * 4);
    h2d(dfC, fC, nn * 4);
    const float fa = (float)kAlpha, fb = (float)kBeta;
    auto run = [&]() {
      CKB(cublasSgemm(ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &fa, dfB,
                      n, dfA, n, &fb, dfC, n));
    };
    run();
    CK(cudaDeviceSynchronize());
    std::vector<float> out(nn);
    d2h(out.data(), dfC, nn * 4);
    // Reference from the float-rounded inputs, on the same sample.
    ErrAcc acc;
    for (size_t t = 0; t < smp.i.size(); t++) {
      size_t i = smp.i[t], j = smp.j[t];
      double s = 0;
      for (int k = 0; k < n; k++) s += (double)fA[i * n + k] * fB[(size_t)k * n + j];
      acc.add(out[i * n + j], kAlpha * s + kBeta * (double)fC[i * n + j]);
    }
    Timing t = time_device(ctx, 1, [&](int) { run(); });
    report(ctx, "gemm", "cublas_sgemm_fp32/kernel", size, t, flops,
           traffic / 2, acc.value(), kTolFloat);
    CK(cudaFree(dfA));
    CK(cudaFree(dfB));
    CK(cudaFree(dfC));
    CK(cudaFreeHost(fA));
    CK(cudaFreeHost(fB));
    CK(cudaFreeHost(fC));
  }

  for (int c = 0; c < copies; c++) {
    CK(cudaFree(dA[c]));
    CK(cudaFree(dB[c]));
    CK(cudaFree(dC[c]));
  }
  CK(cudaFreeHost(hA));
  CK(cudaFreeHost(hB));
  CK(cudaFreeHost(hC0));
  CK(cudaFreeHost(hC));
}

}  // namespace

void group_gemm(Ctx &ctx) {
  run_size(ctx, 2048);
#ifdef POLYCUDA_BENCH_GEMM_4096
  if (!ctx.quick) run_size(ctx, 4096);
#endif
}
