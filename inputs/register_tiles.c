/* register_tiles.c -- products whose kernels register tiling applies to,
 * in shapes that gemm does not have: the accumulator transposed and at an
 * offset, a subtraction, a triangular loop, a second accumulator in the
 * same loop, and sizes that are not multiples of any tile.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual
 * -D<SIZE>=...  Element type: -DDATA_TYPE=... (default double).  Prints
 * every output array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 23
# endif
# ifndef M
#  define M 29
# endif
# ifndef K
#  define K 17
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 61
# endif
# ifndef M
#  define M 75
# endif
# ifndef K
#  define K 43
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 203
# endif
# ifndef M
#  define M 227
# endif
# ifndef K
#  define K 139
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1003
# endif
# ifndef M
#  define M 1109
# endif
# ifndef K
#  define K 607
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

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

static void kernel_register_tiles(int n, int m, int k, DATA_TYPE alpha,
                                  DATA_TYPE T[M + 1][N], DATA_TYPE D[N][M],
                                  DATA_TYPE E[N][M], DATA_TYPE L[N][N],
                                  DATA_TYPE A[N][K], DATA_TYPE B[K][M])
{
  int i, j, p;

#pragma scop
  /* The accumulator transposed and one row down: T[j + 1][i]. */
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      for (p = 0; p < k; p++)
        T[j + 1][i] += alpha * A[i][p] * B[p][j];
  /* A subtraction, and a second accumulator in the same loop. */
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      for (p = 0; p < k; p++) {
        D[i][j] -= A[i][p] * B[p][j];
        E[i][j] += A[i][p] * A[i][p] * B[p][j];
      }
  /* A triangle: j <= i. */
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      for (p = 0; p < k; p++)
        L[i][j] += A[i][p] * A[j][p];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE T[M + 1][N], D[N][M], E[N][M], L[N][N], A[N][K], B[K][M];
  DATA_TYPE alpha = 0.75;
  int i, j;

  for (i = 0; i <= M; i++)
    for (j = 0; j < N; j++)
      T[i][j] = (DATA_TYPE)((i + 2 * j) % 7) / 7;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      D[i][j] = (DATA_TYPE)((i * j + 3) % 11) / 11;
      E[i][j] = (DATA_TYPE)((i + j) % 5) / 5;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      L[i][j] = (DATA_TYPE)((i * 3 + j) % 13) / 13;
  for (i = 0; i < N; i++)
    for (j = 0; j < K; j++)
      A[i][j] = (DATA_TYPE)((i * (j + 1)) % K) / K;
  for (i = 0; i < K; i++)
    for (j = 0; j < M; j++)
      B[i][j] = (DATA_TYPE)((i * (j + 2)) % M) / M;

  kernel_register_tiles(N, M, K, alpha, T, D, E, L, A, B);

  print_array("T", &T[0][0], (long)(M + 1) * N);
  print_array("D", &D[0][0], (long)N * M);
  print_array("E", &E[0][0], (long)N * M);
  print_array("L", &L[0][0], (long)N * N);
  return 0;
}
