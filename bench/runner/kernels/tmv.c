/* tmv.c -- y = A^T x, TMV_N x TMV_N row-major, double.  bench/runner input
 * for polycuda; -DBENCH: bench_tmv() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef TMV_N
# define TMV_N 8192
#endif

void bench_tmv(int n, double y[TMV_N], double A[TMV_N][TMV_N], double x[TMV_N])
{
  int i, j;
#pragma scop
  for (j = 0; j < n; j++) {
    y[j] = 0.0;
    for (i = 0; i < n; i++)
      y[j] += A[i][j] * x[i];
  }
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double A[TMV_N][TMV_N], x[TMV_N], y[TMV_N];
  int n = 64, i, j;
  for (i = 0; i < n; i++) {
    x[i] = 1 + i % 7;
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i + 2 * j) % n) / n;
  }
  bench_tmv(n, y, A, x);
  printf("%.10e\n", y[n - 1]);
  return 0;
}
#endif
