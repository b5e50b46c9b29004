/* transpose.c -- B = A^T for a rectangular M x N matrix A (each loop order
 * reads one array along its rows and the other down its columns)
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
#  define M 37
# endif
# ifndef N
#  define N 45
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
#  define M 1000
# endif
# ifndef N
#  define N 1200
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 4000
# endif
# ifndef N
#  define N 5000
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

static void kernel_transpose(int m, int n, DATA_TYPE A[M][N], DATA_TYPE B[N][M])
{
  int i, j;

#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      B[j][i] = A[i][j];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[M][N], B[N][M];
  int i, j;

  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (DATA_TYPE)((3 * i + 7 * j + 1) % 101) / 101;

  kernel_transpose(M, N, A, B);

  print_array("B", &B[0][0], (long)N * M);
  return 0;
}
