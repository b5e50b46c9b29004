/* quadratic.c -- non-affine subscripts: a quadratic i * i, a product of parameters, a square modulo a parameter in an inner dimension
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
#  define N 30
# endif
# ifndef M
#  define M 16
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 100
# endif
# ifndef M
#  define M 64
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 300
# endif
# ifndef M
#  define M 256
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1000
# endif
# ifndef M
#  define M 1024
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

/* A[i * i] and B[n * m + i] are may-accesses of the whole array; the row of
 * C stays exact where only its column subscript is not affine. */
static void kernel_quadratic(int n, int m, DATA_TYPE A[N * N], DATA_TYPE B[N * M + N],
                             DATA_TYPE C[N][M], DATA_TYPE x[N], DATA_TYPE y[N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    A[i * i] = x[i] + 1.0;
  for (i = 0; i < n; i++)
    y[i] = A[i * i] + A[(i * i) / 2];
  for (i = 0; i < n; i++)
    B[n * m + i] = y[i] * 2.0;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      C[i][(j * j + i) % m] += B[i * m + j] + B[n * m + i];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N * N], B[N * M + N], C[N][M], x[N], y[N];
  int i, j;

  for (i = 0; i < N * N; i++)
    A[i] = (DATA_TYPE)(i % 9) / 9;
  for (i = 0; i < N * M + N; i++)
    B[i] = (DATA_TYPE)((i * 5) % 7) / 7;
  for (i = 0; i < N; i++) {
    x[i] = (DATA_TYPE)((i * 11 + 3) % 23) / 23;
    y[i] = 0;
    for (j = 0; j < M; j++)
      C[i][j] = (DATA_TYPE)(i + j) / (N + M);
  }

  kernel_quadratic(N, M, A, B, C, x, y);

  print_array("A", A, (long)N * N);
  print_array("B", B, (long)N * M + N);
  print_array("C", &C[0][0], (long)N * M);
  print_array("y", y, N);
  return 0;
}
