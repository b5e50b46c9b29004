/* mv.c -- matrix-vector product y = A*x (row-wise access of A)
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
#  define N 32
# endif
# ifndef M
#  define M 40
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 140
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
# ifndef M
#  define M 450
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4000
# endif
# ifndef M
#  define M 4000
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

static void kernel_mv(int n, int m, DATA_TYPE A[N][M], DATA_TYPE x[M], DATA_TYPE y[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i] = y[i] + A[i][j] * x[j];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], x[M], y[N];

  for (int i = 0; i < N; i++) {
    y[i] = 0;
    for (int j = 0; j < M; j++)
      A[i][j] = (DATA_TYPE)((i * j + 1) % M) / M;
  }
  for (int j = 0; j < M; j++)
    x[j] = 1 + (DATA_TYPE)j / M;

  kernel_mv(N, M, A, x, y);

  print_array("y", y, N);
  return 0;
}
