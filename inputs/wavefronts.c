/* wavefronts.c -- in-place sweeps whose wavefronts need other skews than
 * seidel-2d's: a weighted sweep reading up-right and down-left neighbours
 * (wavefront 2t + 2i + j) and one reading two columns away (3t + i + j),
 * each a scop of its own (tiled wavefronts, --tiled-wavefronts)
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
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef TSTEPS
#  define TSTEPS 40
# endif
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# ifndef N
#  define N 400
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 500
# endif
# ifndef N
#  define N 1500
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

static void kernel_wavefronts(int tsteps, int n, DATA_TYPE A[N][N],
                              DATA_TYPE B[N][N])
{
  int t, i, j;

#pragma scop
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = 0.5 * A[i - 1][j + 1] + 0.25 * A[i][j - 1]
                  + 0.125 * A[i + 1][j - 1] + 0.1 * A[i][j];
#pragma endscop

#pragma scop
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 2; j <= n - 3; j++)
        B[i][j] = (2.0 * B[i - 1][j] + B[i + 1][j] + B[i][j - 2]
                   + B[i][j + 2] + B[i][j]) / 6.0;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N], B[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = ((DATA_TYPE)((i * 7 + j * 3) % 11)) / 11;
      B[i][j] = ((DATA_TYPE)i * (j + 2) + 2) / N;
    }

  kernel_wavefronts(TSTEPS, N, A, B);

  print_array("A", &A[0][0], (long)N * N);
  print_array("B", &B[0][0], (long)N * N);
  return 0;
}
