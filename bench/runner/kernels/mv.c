/* mv.c -- y = A x, MV_N x MV_N row-major, double.  bench/runner input for
 * polycuda; -DBENCH: bench_mv() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef MV_N
# define MV_N 8192
#endif

void bench_mv(int n, double y[MV_N], double A[MV_N][MV_N], double x[MV_N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    y[i] = 0.0;
    for (j = 0; j < n; j++)
      y[i] += A[i][j] * x[j];
  }
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double A[MV_N][MV_N], x[MV_N], y[MV_N];
  int n = 64, i, j;
  for (i = 0; i < n; i++) {
    x[i] = 1 + i % 7;
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i + 2 * j) % n) / n;
  }
  bench_mv(n, y, A, x);
  printf("%.10e\n", y[n - 1]);
  return 0;
}
#endif
