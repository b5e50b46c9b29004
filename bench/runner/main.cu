// main.cu -- bench/runner harness: measures the two ceilings (device-to-
// device copy bandwidth, cuBLAS DGEMM/SGEMM at 8192^3), then every group of
// bench/baselines/*.cu (hand-written kernels and cuBLAS, kernel-only and
// end to end) against polycuda's generated functions (end to end), and
// writes one CSV.
//   polycuda_bench OUT.csv [--reps N] [--e2e-reps N] [--warmup N] [--quick]
//                  [--only g1,g2,...] [--driver STRING] [--commit STRING]
// Groups: ceiling gemm transpose mv tmv jacobi2d stencil9 sumprod.
// Exit status 1 when any correctness check failed.
#include "harness.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

static void ceilings(Ctx &ctx) {
  // Device-to-device copy: 1 GiB, far over L2; bytes read + written.
  {
    const size_t bytes = 1ull << 30;
    void *a = nullptr, *b = nullptr;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemset(a, 0x3c, bytes));
    Timing t = time_device(ctx, 1, [&](int) {
      CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
    });
    report(ctx, "ceiling", "memcpy_d2d/kernel", "1GiB", t, 0, 2.0 * bytes, -1, 0);
    CK(cudaFree(a));
    CK(cudaFree(b));
  }
  // Host <-> device copy bandwidth from pinned memory (the end-to-end floor).
  {
    const size_t bytes = 512ull << 20;
    void *d = nullptr, *h = nullptr;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMallocHost(&h, bytes));
    memset(h, 0x3c, bytes);
    Timing t = time_device(ctx, 1, [&](int) {
      CK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice));
    });
    report(ctx, "ceiling", "memcpy_h2d_pinned/kernel", "512MiB", t, 0, bytes, -1, 0);
    t = time_device(ctx, 1, [&](int) {
      CK(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost));
    });
    report(ctx, "ceiling", "memcpy_d2h_pinned/kernel", "512MiB", t, 0, bytes, -1, 0);
    CK(cudaFree(d));
    CK(cudaFreeHost(h));
  }
  // cuBLAS at 8192^3 on random data.
  {
    const int n = 8192;
    const size_t nn = (size_t)n * n;
    const double flops = 2.0 * n * (double)n * n;
    std::vector<double> hd(nn);
    double *A = dev_alloc<double>(nn), *B = dev_alloc<double>(nn), *C = dev_alloc<double>(nn);
    fill_random(hd.data(), nn, 1);
    h2d(A, hd.data(), nn * 8);
    fill_random(hd.data(), nn, 2);
    h2d(B, hd.data(), nn * 8);
    fill_random(hd.data(), nn, 3);
    h2d(C, hd.data(), nn * 8);
    const double one = 1, zero = 0;
    Timing t = time_device(ctx, 1, [&](int) {
      CKB(cublasDgemm(ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n));
    });
    report(ctx, "ceiling", "cublas_dgemm/kernel", "8192^3", t, flops, 0, -1, 0);
    float *fA = (float *)A, *fB = (float *)B, *fC = (float *)C;  // reuse memory
    std::vector<float> hf(nn);
    fill_random(hf.data(), nn, 4);
    h2d(fA, hf.data(), nn * 4);
    fill_random(hf.data(), nn, 5);
    h2d(fB, hf.data(), nn * 4);
    const float fone = 1, fzero = 0;
    t = time_device(ctx, 1, [&](int) {
      CKB(cublasSgemm(ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &fone, fA, n, fB, n, &fzero, fC, n));
    });
    report(ctx, "ceiling", "cublas_sgemm_fp32/kernel", "8192^3", t, flops, 0, -1, 0);
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.csv [--reps N] [--e2e-reps N] [--warmup N] "
                    "[--quick] [--only g1,g2] [--driver S] [--commit S]\n", argv[0]);
    return 2;
  }
  Ctx ctx;
  std::string driver = "?", commit = "?";
  for (int a = 2; a < argc; a++) {
    std::string s = argv[a];
    auto val = [&]() -> std::string {
      if (a + 1 >= argc) { fprintf(stderr, "%s needs a value\n", s.c_str()); exit(2); }
      return argv[++a];
    };
    if (s == "--reps") ctx.reps = std::max(1, atoi(val().c_str()));
    else if (s == "--e2e-reps") ctx.e2e_reps = std::max(1, atoi(val().c_str()));
    else if (s == "--warmup") ctx.warmup = std::max(0, atoi(val().c_str()));
    else if (s == "--quick") ctx.quick = true;
    else if (s == "--driver") driver = val();
    else if (s == "--commit") commit = val();
    else if (s == "--only") {
      std::stringstream ss(val());
      std::string g;
      while (std::getline(ss, g, ',')) if (!g.empty()) ctx.only.push_back(g);
    } else { fprintf(stderr, "unknown option %s\n", s.c_str()); return 2; }
  }
  int dev = 0, drv = 0, rt = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&ctx.prop, dev));
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  CKB(cublasCreate(&ctx.cublas));
  CKB(cublasSetMathMode(ctx.cublas, CUBLAS_DEFAULT_MATH));  // no TF32 in SGEMM
  int cublas_ver = 0;
  CKB(cublasGetVersion(ctx.cublas, &cublas_ver));

  ctx.csv = fopen(argv[1], "w");
  if (!ctx.csv) { perror(argv[1]); return 1; }
  char header[1024];
  snprintf(header, sizeof header,
           "# gpu=%s; driver=%s; cuda_driver_api=%d; cuda_runtime=%d; cublas=%d; "
           "cc=%d.%d; sms=%d; l2_bytes=%d; mem_bytes=%zu; commit=%s; reps=%d; "
           "e2e_reps=%d; warmup=%d; tol_double=%g; tol_float=%g",
           ctx.prop.name, driver.c_str(), drv, rt, cublas_ver, ctx.prop.major,
           ctx.prop.minor, ctx.prop.multiProcessorCount, ctx.prop.l2CacheSize,
           ctx.prop.totalGlobalMem, commit.c_str(), ctx.reps, ctx.e2e_reps,
           ctx.warmup, kTolDouble, kTolFloat);
  fprintf(ctx.csv, "%s\n", header);
  fprintf(ctx.csv, "group,variant,size,median_ms,min_ms,gflops,gbs,rel_error,check\n");
  printf("%s\n", header);
  fflush(stdout);

  if (ctx.wants("ceiling")) ceilings(ctx);
  if (ctx.wants("gemm")) group_gemm(ctx);
  if (ctx.wants("transpose")) group_transpose(ctx);
  if (ctx.wants("mv") || ctx.wants("tmv")) group_mv(ctx);
  if (ctx.wants("jacobi2d") || ctx.wants("stencil9")) group_stencil(ctx);
  if (ctx.wants("sumprod")) group_sumprod(ctx);

  fclose(ctx.csv);
  CKB(cublasDestroy(ctx.cublas));
  printf("done: %d failed check(s)\n", ctx.failures);
  return ctx.failures ? 1 : 0;
}
