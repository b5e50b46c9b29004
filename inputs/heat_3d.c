/* heat_3d.c -- 3-D heat equation, explicit 7-point stencil, two statements per time step
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
# ifndef TSTEPS
#  define TSTEPS 20
# endif
# ifndef N
#  define N 10
# endif
#elif defined(SMALL_DATASET)
# ifndef TSTEPS
#  define TSTEPS 40
# endif
# ifndef N
#  define N 20
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# ifndef N
#  define N 40
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 500
# endif
# ifndef N
#  define N 120
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

static void kernel_heat_3d(int tsteps, int n, DATA_TYPE A[N][N][N], DATA_TYPE B[N][N][N])
{
#pragma scop
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1])
                     + A[i][j][k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                     + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                     + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1])
                     + B[i][j][k];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N][N], B[N][N][N];

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (DATA_TYPE)(i + j + (N - k)) * 10 / N;

  kernel_heat_3d(TSTEPS, N, A, B);

  print_array("A", &A[0][0][0], (long)N * N * N);
  print_array("B", &B[0][0][0], (long)N * N * N);
  return 0;
}
