/* scatter.c -- scatters through index arrays (with repeated indices), an index array written in the scop, an index held in a scalar
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
#  define N 100
# endif
# ifndef M
#  define M 40
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 1000
# endif
# ifndef M
#  define M 400
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 20000
# endif
# ifndef M
#  define M 8000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 500000
# endif
# ifndef M
#  define M 200000
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

static void print_ints(const char *name, const int *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%d", a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

/* Writes through index arrays are may-writes: they kill no earlier write,
 * so elements no iteration writes keep their values, and where two
 * iterations hit one element the later one wins, as in the source (the
 * odd elements of y and the upper half of z are never written). */
static void kernel_scatter(int n, int m, int idx[N], DATA_TYPE x[N], DATA_TYPE y[M],
                           DATA_TYPE z[M], DATA_TYPE v[N])
{
  int i, k;

#pragma scop
  for (i = 0; i < n; i++)
    y[idx[i]] = x[i];
  for (i = 0; i < n; i++)
    idx[i] = (idx[i] * 3 + i) % (m / 2);
  for (i = 0; i < n; i++)
    z[idx[i]] += 0.25 * y[idx[i]] + x[i];
  for (i = 0; i < n; i++) {
    k = idx[n - 1 - i];
    v[i] = z[k] - y[k];
  }
#pragma endscop
}

int main(void)
{
  static int idx[N];
  static DATA_TYPE x[N], y[M], z[M], v[N];
  int i;

  for (i = 0; i < N; i++) {
    idx[i] = (i * 7 + 1) % (M / 2) * 2; /* even elements only */
    x[i] = (DATA_TYPE)((i * 3 + 2) % 13) / 13;
    v[i] = 0;
  }
  for (i = 0; i < M; i++) {
    y[i] = (DATA_TYPE)(i % 5) / 5;
    z[i] = 1;
  }

  kernel_scatter(N, M, idx, x, y, z, v);

  print_ints("idx", idx, N);
  print_array("y", y, M);
  print_array("z", z, M);
  print_array("v", v, N);
  return 0;
}
