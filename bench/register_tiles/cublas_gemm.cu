// cuBLAS baseline of bench/register_tiles: C = alpha * A * B + beta * C,
// square N x N, row-major data (computed as the column-major product of the
// transposes), double (cublasDgemm) or float (cublasSgemm, the default
// math mode: FP32, no TF32). Prints the median and minimum kernel time of REPS calls, each timed
// with its own pair of CUDA events, after 3 warm-up calls.
//   cublas_gemm N f64|f32 [REPS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != 0) {                                                         \
      std::fprintf(stderr, "cublas_gemm: %s failed\n", #call);                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

template <typename T>
static std::vector<float> timeGemm(cublasHandle_t handle, int n, int reps) {
  size_t bytes = size_t(n) * n * sizeof(T);
  T *a, *b, *c;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMemset(a, 0, bytes));
  CHECK(cudaMemset(b, 0, bytes));
  CHECK(cudaMemset(c, 0, bytes));
  T alpha = 1.5, beta = 1.2;
  auto call = [&] {
    if constexpr (sizeof(T) == 8)
      CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b,
                        n, a, n, &beta, c, n));
    else
      CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b,
                        n, a, n, &beta, c, n));
  };
  for (int i = 0; i < 3; ++i)
    call();
  std::vector<float> ms;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(start));
    call();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return ms;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cublas_gemm N f64|f32 [REPS]\n");
    return 2;
  }
  int n = std::atoi(argv[1]);
  bool f64 = std::strcmp(argv[2], "f64") == 0;
  int reps = argc > 3 ? std::atoi(argv[3]) : 10;
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  // The default math mode: SGEMM computes in FP32 (no TF32), DGEMM in FP64.
  CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  std::vector<float> ms = f64 ? timeGemm<double>(handle, n, reps)
                              : timeGemm<float>(handle, n, reps);
  std::sort(ms.begin(), ms.end());
  std::printf("cublas,%s,%d,%.4f,%.4f\n", f64 ? "f64" : "f32", n,
              ms[ms.size() / 2], ms.front());
  cublasDestroy(handle);
  return 0;
}
