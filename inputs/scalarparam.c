/* scalarparam.c -- bounds from scalar int parameters lo/hi (read-only) and negative-stride loops
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
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 3000
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

static void kernel_scalarparam(int n, int lo, int hi, DATA_TYPE A[N][N], DATA_TYPE B[N][N],
                               DATA_TYPE b[N], DATA_TYPE x[N])
{
  int i, j;

#pragma scop
  for (i = lo; i < hi; i++)
    for (j = 0; j < n; j++)
      B[i][j] = 2.0 * A[i][j] + A[j][i];
  x[n - 1] = b[n - 1];
  for (i = n - 2; i >= 0; i--)
    x[i] = b[i] + 0.5 * x[i + 1];
  for (i = n - 1; i >= 0; i--)
    for (j = hi - 1; j >= lo; j--)
      A[i][j] = 0.5 * A[i][j] + B[j][i] * x[i];
#pragma endscop
}

int main(int argc, char **argv)
{
  static DATA_TYPE A[N][N], B[N][N], b[N], x[N];
  int i, j;
  /* lo/hi are run-time values (argc is 1 in the tests). */
  int lo = N / 4 + (argc - 1), hi = N - N / 5;

  (void)argv;
  for (i = 0; i < N; i++) {
    b[i] = (DATA_TYPE)((i * 5 + 1) % 13) / 13;
    x[i] = 0;
    for (j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 2) % N) / N;
      B[i][j] = (DATA_TYPE)(i + j) / N;
    }
  }

  kernel_scalarparam(N, lo, hi, A, B, b, x);

  print_array("A", &A[0][0], (long)N * N);
  print_array("B", &B[0][0], (long)N * N);
  print_array("x", x, N);
  return 0;
}
