/* jacobi2d.c -- one Jacobi-2d sweep, B = 0.2 * 5-point sum of A on the
 * interior of a J2_N x J2_N grid, double.  bench/runner input for polycuda;
 * -DBENCH: bench_jacobi2d() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef J2_N
# define J2_N 8192
#endif

void bench_jacobi2d(int n, double B[J2_N][J2_N], double A[J2_N][J2_N])
{
  int i, j;
#pragma scop
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < n - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double A[J2_N][J2_N], B[J2_N][J2_N];
  int n = 64, i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 1) % n) / n;
  bench_jacobi2d(n, B, A);
  printf("%.10e\n", B[n / 2][n / 3]);
  return 0;
}
#endif
