/* transpose.c -- B = A^T, TR_N x TR_N, double.  bench/runner input for
 * polycuda; -DBENCH: bench_transpose() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef TR_N
# define TR_N 8192
#endif

void bench_transpose(int n, double B[TR_N][TR_N], double A[TR_N][TR_N])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[j][i] = A[i][j];
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double A[TR_N][TR_N], B[TR_N][TR_N];
  int n = 64, i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = i * n + j;
  bench_transpose(n, B, A);
  printf("%.10e\n", B[3][5]);
  return 0;
}
#endif
