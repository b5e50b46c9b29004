/* sumprod.c -- sum-product bucket
 *   k(x,z) = sum_{w,y} f(x,y,z) * g(w,x) * h(w,y)
 * with x, y, z, w in [0, SP_N), double.  bench/runner input for polycuda;
 * -DBENCH: bench_sumprod() only, no main(). */
#include <stdio.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef SP_N
# define SP_N 128
#endif

void bench_sumprod(int n, double k[SP_N][SP_N], double f[SP_N][SP_N][SP_N],
                   double g[SP_N][SP_N], double h[SP_N][SP_N])
{
  int x, y, z, w;
#pragma scop
  for (x = 0; x < n; x++)
    for (z = 0; z < n; z++) {
      k[x][z] = 0.0;
      for (w = 0; w < n; w++)
        for (y = 0; y < n; y++)
          k[x][z] += f[x][y][z] * g[w][x] * h[w][y];
    }
#pragma endscop
}

#ifndef BENCH
int main(void)
{
  static double k[SP_N][SP_N], f[SP_N][SP_N][SP_N], g[SP_N][SP_N], h[SP_N][SP_N];
  int n = 16, x, y, z;
  for (x = 0; x < n; x++)
    for (y = 0; y < n; y++) {
      g[x][y] = 1.0 / (1 + x + y);
      h[x][y] = 1.0 / (2 + x * y);
      for (z = 0; z < n; z++)
        f[x][y][z] = (double)((x + y * z) % n) / n;
    }
  bench_sumprod(n, k, f, g, h);
  printf("%.10e\n", k[n - 1][n / 2]);
  return 0;
}
#endif
