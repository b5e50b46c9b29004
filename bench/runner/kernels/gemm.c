/* gemm.c -- C = alpha*A*B + beta*C, square GEMM_N x GEMM_N, double.
 * bench/runner input for polycuda.  With -DBENCH: only bench_gemm_<N>()
 * (the function holding the scop), no main().  Without: a tiny self-check
 * program for a sequential compiler.  -DGEMM_N=... picks the size. */
#include <stdio.h>
#include <stdlib.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef GEMM_N
# define GEMM_N 2048
#endif
#define GEMM_CAT2(a, b) a##b
#define GEMM_CAT(a, b) GEMM_CAT2(a, b)
#define BENCH_GEMM GEMM_CAT(bench_gemm_, GEMM_N)

void BENCH_GEMM(int ni, int nj, int nk, double alpha, double beta,
                double C[GEMM_N][GEMM_N], double A[GEMM_N][GEMM_N],
                double B[GEMM_N][GEMM_N])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double C[GEMM_N][GEMM_N], A[GEMM_N][GEMM_N], B[GEMM_N][GEMM_N];
  int n = 64, i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = (double)((i * j + 1) % n) / n;
      B[i][j] = (double)((i + 2 * j) % n) / n;
      C[i][j] = 1.0;
    }
  BENCH_GEMM(n, n, n, 1.5, 1.2, C, A, B);
  printf("%.10e\n", C[n - 1][n - 1]);
  return 0;
}
#endif
