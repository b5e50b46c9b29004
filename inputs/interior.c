/* interior.c -- a scop that writes only the interior of its output arrays
 *
 * Part of the polycuda test inputs (copy sets: issue 14). B (2-D) and C
 * (3-D) are written only inside a border; the border keeps the values main
 * gave it, which must survive the copy back (a box copy, not a linear
 * range). T is written in full before it is read: nothing of it is copied
 * in. Sizes: -DMINI_DATASET (default) ... -DLARGE_DATASET, or -DN=, -DM=,
 * -DK=. Prints every output array.
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
# define DEFAULT_N 12
# define DEFAULT_M 14
# define DEFAULT_K 6
#elif defined(SMALL_DATASET)
# define DEFAULT_N 60
# define DEFAULT_M 70
# define DEFAULT_K 10
#elif defined(MEDIUM_DATASET)
# define DEFAULT_N 250
# define DEFAULT_M 270
# define DEFAULT_K 20
#else
# define DEFAULT_N 1000
# define DEFAULT_M 1200
# define DEFAULT_K 40
#endif
#ifndef N
# define N DEFAULT_N
#endif
#ifndef M
# define M DEFAULT_M
#endif
#ifndef K
# define K DEFAULT_K
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_interior(int n, int m, int k, DATA_TYPE A[N][M],
                            DATA_TYPE B[N][M], DATA_TYPE C[K][N][M],
                            DATA_TYPE T[N][M])
{
  int p, i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      T[i][j] = 0.5 * A[i][j];
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++)
      B[i][j] = T[i - 1][j] + T[i + 1][j] + T[i][j - 1] + T[i][j + 1];
  for (p = 1; p < k - 1; p++)
    for (i = 2; i < n - 2; i++)
      for (j = 1; j < m - 1; j++)
        C[p][i][j] = C[p][i][j] * 0.5 + B[i][j] * p;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], B[N][M], C[K][N][M], T[N][M];
  int p, i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 17) / 17;
      B[i][j] = -1000 - i - 0.001 * j; /* only the border survives */
      T[i][j] = 12345;                 /* overwritten before read */
    }
  for (p = 0; p < K; p++)
    for (i = 0; i < N; i++)
      for (j = 0; j < M; j++)
        C[p][i][j] = p + 0.01 * i - 0.0001 * j;

  kernel_interior(N, M, K, A, B, C, T);

  print_array("B", &B[0][0], (long)N * M);
  print_array("C", &C[0][0][0], (long)K * N * M);
  print_array("T", &T[0][0], (long)N * M);
  return 0;
}
