/* sumprod_triangle.c -- sumprod.c over a triangle: k[x][z] = sum over
 * x <= w < N, 0 <= y <= w of f[x][y][z] * g[w][x] * h[w][y] (the lanes of a
 * block share w, and each runs several of its iterations together inside
 * y: the groups of w and the y loop depend on x and w, so the guard of a
 * partial group is tested inside y)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default double).  Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 37
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 64
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 128
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 256
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

/* Integer element types print with %d, floating ones with %.10e. */
#define DATA_IS_INTEGER ((DATA_TYPE)0.5 == (DATA_TYPE)0)

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    if (DATA_IS_INTEGER)
      printf("%d", (int)a[i]);
    else
      printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_sumprod(int n, DATA_TYPE k[N][N], DATA_TYPE f[N][N][N],
                           DATA_TYPE g[N][N], DATA_TYPE h[N][N])
{
#pragma scop
  for (int x = 0; x < n; x++)
    for (int z = 0; z < n; z++) {
      k[x][z] = 0;
      for (int w = x; w < n; w++)
        for (int y = 0; y <= w; y++)
          k[x][z] += f[x][y][z] * g[w][x] * h[w][y];
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE k[N][N], f[N][N][N], g[N][N], h[N][N];

  for (int x = 0; x < N; x++)
    for (int y = 0; y < N; y++) {
      g[x][y] = 1 / (DATA_TYPE)(1 + x + y);
      h[x][y] = 1 / (DATA_TYPE)(2 + x * y);
      for (int z = 0; z < N; z++)
        f[x][y][z] = (DATA_TYPE)((x + y * z) % N) / N;
    }

  kernel_sumprod(N, k, f, g, h);

  print_array("k", &k[0][0], (long)N * N);
  return 0;
}
