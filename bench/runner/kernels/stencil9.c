/* stencil9.c -- 9x9 (radius-4) 2-D stencil with a weight table,
 * B[i][j] = sum_{a,b in 0..8} W[a][b] * A[i+a-4][j+b-4] on the interior
 * (4 <= i,j < n-4) of an S9_N x S9_N grid, double.  bench/runner input for
 * polycuda; -DBENCH: bench_stencil9() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef S9_N
# define S9_N 8192
#endif

void bench_stencil9(int n, double B[S9_N][S9_N], double A[S9_N][S9_N],
                    double W[9][9])
{
  int i, j, a, b;
  double s;
#pragma scop
  for (i = 4; i < n - 4; i++)
    for (j = 4; j < n - 4; j++) {
      s = 0.0;
      for (a = 0; a < 9; a++)
        for (b = 0; b < 9; b++)
          s += W[a][b] * A[i + a - 4][j + b - 4];
      B[i][j] = s;
    }
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double A[S9_N][S9_N], B[S9_N][S9_N], W[9][9];
  int n = 64, i, j;
  for (i = 0; i < 9; i++)
    for (j = 0; j < 9; j++)
      W[i][j] = 1.0 / (1 + i + j);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = (double)((i * j + 1) % n) / n;
  bench_stencil9(n, B, A, W);
  printf("%.10e\n", B[n / 2][n / 3]);
  return 0;
}
#endif
