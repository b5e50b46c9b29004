/* clamped_stencil.c -- 3x3 box filter with the neighbourhood clamped at the border
 *
 * Part of the polycuda test inputs.  Clamping is written as min/max ternaries
 * inside the subscripts (A[i][(0 > j - 1 ? 0 : j - 1)]) and as calls of
 * min()/max(), so every subscript printer must keep them bracketed inside a
 * linearized index.
 * Sizes: -DMINI_DATASET (default), -DSMALL_DATASET, -DMEDIUM_DATASET,
 * -DLARGE_DATASET, or -DN=... -DM=...
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
#  define N 9
# endif
# ifndef M
#  define M 11
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 130
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1000
# endif
# ifndef M
#  define M 1200
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4037
# endif
# ifndef M
#  define M 4096
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_clamped_stencil(int n, int m, DATA_TYPE A[n][m], DATA_TYPE B[n][m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = (A[(0 > i - 1 ? 0 : i - 1)][(0 > j - 1 ? 0 : j - 1)] +
                 A[(0 > i - 1 ? 0 : i - 1)][j] +
                 A[(0 > i - 1 ? 0 : i - 1)][(j + 1 < m - 1 ? j + 1 : m - 1)] +
                 A[i][(0 > j - 1 ? 0 : j - 1)] + A[i][j] +
                 A[i][(j + 1 < m - 1 ? j + 1 : m - 1)] +
                 A[min(i + 1, n - 1)][max(j - 1, 0)] +
                 A[min(i + 1, n - 1)][j] +
                 A[min(i + 1, n - 1)][min(j + 1, m - 1)]) / 9;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], B[N][M];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      A[i][j] = (DATA_TYPE)((7 * i + 3 * j + 1) % 17) / 17 + 0.1;
      B[i][j] = 0;
    }
  kernel_clamped_stencil(N, M, A, B);
  print_array("B", &B[0][0], (long)N * M);
  return 0;
}
