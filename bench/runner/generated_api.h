// generated_api.h -- the functions that bench/runner/prepare.sh gets from
// polycuda (carry/generated/*.cu, translated from bench/runner/kernels/*.c
// with -DBENCH).  Each call allocates device memory, copies its arrays in,
// runs the kernels, copies results out and frees: host arrays in, host
// arrays out.  The sizes here must match the kernels/*.c defaults.
#pragma once

#define GEN_TR_N 8192
#define GEN_MV_N 8192
#define GEN_J2_N 8192
#define GEN_S9_N 8192
#define GEN_SP_N 128

// Defined in the generated C files (*.host.c).
extern "C" {

void bench_gemm_2048(int ni, int nj, int nk, double alpha, double beta,
                     double C[2048][2048], double A[2048][2048],
                     double B[2048][2048]);
#ifdef POLYCUDA_BENCH_GEMM_4096
void bench_gemm_4096(int ni, int nj, int nk, double alpha, double beta,
                     double C[4096][4096], double A[4096][4096],
                     double B[4096][4096]);
#endif
void bench_transpose(int n, double B[GEN_TR_N][GEN_TR_N],
                     double A[GEN_TR_N][GEN_TR_N]);
void bench_mv(int n, double y[GEN_MV_N], double A[GEN_MV_N][GEN_MV_N],
              double x[GEN_MV_N]);
void bench_tmv(int n, double y[GEN_MV_N], double A[GEN_MV_N][GEN_MV_N],
               double x[GEN_MV_N]);
void bench_jacobi2d(int n, double B[GEN_J2_N][GEN_J2_N],
                    double A[GEN_J2_N][GEN_J2_N]);
void bench_stencil9(int n, double B[GEN_S9_N][GEN_S9_N],
                    double A[GEN_S9_N][GEN_S9_N], double W[9][9]);
void bench_sumprod(int n, double k[GEN_SP_N][GEN_SP_N],
                   double f[GEN_SP_N][GEN_SP_N][GEN_SP_N],
                   double g[GEN_SP_N][GEN_SP_N], double h[GEN_SP_N][GEN_SP_N]);
}
