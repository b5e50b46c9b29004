/* minmax.c -- loop bounds with min/max written as ternaries and && conditions (band and triangle)
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
#  define N 40
# endif
# ifndef M
#  define M 36
# endif
# ifndef BW
#  define BW 3
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 110
# endif
# ifndef BW
#  define BW 8
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
# ifndef M
#  define M 380
# endif
# ifndef BW
#  define BW 20
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 3000
# endif
# ifndef M
#  define M 2800
# endif
# ifndef BW
#  define BW 64
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

/* y = band(A)*x for the band |i - j| <= bw, then a clipped triangle and a
 * region selected by affine ifs. */
static void kernel_minmax(int n, int m, int bw, DATA_TYPE A[N][M], DATA_TYPE x[M],
                          DATA_TYPE y[N], DATA_TYPE B[N][M])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = (i - bw > 0 ? i - bw : 0); j <= (i + bw < m - 1 ? i + bw : m - 1); j++)
      y[i] += A[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i && j < m; j++)
      B[i][j] = A[i][j] + y[i] * x[j];
  for (int i = (bw > 1 ? bw : 1); i < (n < m ? n : m); i++)
    for (int j = i; j < (i + 2 * bw < m ? i + 2 * bw : m); j++) {
      if (j - i <= bw)
        B[i][j] = B[i - 1][j] + A[i][j];
      if (j - i > bw && i + j < m)
        B[i][j] = B[i - 1][j] - A[i][j];
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], x[M], y[N], B[N][M];

  for (int i = 0; i < N; i++) {
    y[i] = (DATA_TYPE)(i % 3);
    for (int j = 0; j < M; j++) {
      A[i][j] = (DATA_TYPE)((i * (j + 1) + 5) % M) / M;
      B[i][j] = 0.5;
    }
  }
  for (int j = 0; j < M; j++)
    x[j] = (DATA_TYPE)(j % 9 + 1) / 9;

  kernel_minmax(N, M, BW, A, x, y, B);

  print_array("y", y, N);
  print_array("B", &B[0][0], (long)N * M);
  return 0;
}
