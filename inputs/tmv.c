/* tmv.c -- transposed matrix-vector product y = A^T*x (inner loop walks down columns of A)
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
#  define M 32
# endif
# ifndef N
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 120
# endif
# ifndef N
#  define N 140
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 400
# endif
# ifndef N
#  define N 450
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 4000
# endif
# ifndef N
#  define N 4000
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

static void kernel_tmv(int m, int n, DATA_TYPE A[M][N], DATA_TYPE x[M], DATA_TYPE y[N])
{
  int i, j;

#pragma scop
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++)
      y[j] += A[i][j] * x[i];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[M][N], x[M], y[N];
  int i, j;

  for (j = 0; j < N; j++)
    y[j] = (DATA_TYPE)(j % 5) / 5;
  for (i = 0; i < M; i++) {
    x[i] = 1 + (DATA_TYPE)(i % 7) / 7;
    for (j = 0; j < N; j++)
      A[i][j] = (DATA_TYPE)((i + 2 * j + 1) % N) / N;
  }

  kernel_tmv(M, N, A, x, y);

  print_array("y", y, N);
  return 0;
}
