/* atax.c -- y = A^T * (A * x)
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
# ifndef M
#  define M 38
# endif
# ifndef N
#  define N 42
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 116
# endif
# ifndef N
#  define N 124
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 390
# endif
# ifndef N
#  define N 410
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1900
# endif
# ifndef N
#  define N 2100
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

static void kernel_atax(int m, int n, DATA_TYPE A[M][N], DATA_TYPE x[N], DATA_TYPE y[N],
                        DATA_TYPE tmp[M])
{
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] = 0;
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (int j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[M][N], x[N], y[N], tmp[M];

  for (int i = 0; i < N; i++)
    x[i] = 1 + (DATA_TYPE)i / N;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (DATA_TYPE)((i + j) % N) / (5 * M);

  kernel_atax(M, N, A, x, y, tmp);

  print_array("y", y, N);
  print_array("tmp", tmp, M);
  return 0;
}
