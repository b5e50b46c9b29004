/* triangular_last_column.c -- a triangular nest whose reduction over i,
 * D[j + 2][j + 3] += ..., the scheduler fuses with an earlier nest's update
 * of the same diagonal, D[i + 1][i + 2] += ... (found by outside testing: the
 * block's combine wrote only the elements of the first statement, so
 * D[n + 1][n + 2], which only the triangular nest updates, at j = n - 1,
 * lost its n - 2 updates on OpenCL and CUDA; the C target was right)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or -DN=...
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
#  define N 64
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 200
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1000
# endif
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

static void kernel_triangular_last_column(int n, DATA_TYPE A[n + 6][n + 6],
                                          DATA_TYPE B[n + 6][n + 6],
                                          DATA_TYPE C[n + 6],
                                          DATA_TYPE D[n + 6][n + 6])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    D[i + 1][i + 2] += 0.5 * ((0.75 * A[i + 3][i + 1] * A[i][i + 1] - (C[i] - 1.50)));
    B[i][i + 2] = D[i + 2][i + 1];
  }
  for (int i = 0; i < n; i++) {
    for (int j = i; j < n; j++)
      D[i + 1][i] += 0.5 * ((1.50 + 0.75 * D[i + 1][i + 3] * A[i][i + 2]));
    A[i + 1][i] = 0.12;
  }
  for (int i = 1; i < n - 1; i++)
    for (int j = i; j < n; j++) {
      B[j + 1][i + 3] = 0.75 * 1.50 * (1.50 + C[i]);
      D[j + 2][j + 3] += 0.5 * (0.5 * (A[i + 2][i + 1] + A[i][i + 1]));
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N + 6][N + 6], B[N + 6][N + 6], C[N + 6], D[N + 6][N + 6];
  for (int x = 0; x < N + 6; x++) {
    C[x] = (DATA_TYPE)((7 * x) % 17) / 17.0 + 0.1;
    for (int y = 0; y < N + 6; y++) {
      A[x][y] = (DATA_TYPE)((7 * x + 3 * y) % 17) / 17.0 + 0.1;
      B[x][y] = (DATA_TYPE)((7 * x + 3 * y) % 17) / 17.0 + 0.1;
      D[x][y] = (DATA_TYPE)((7 * x + 3 * y) % 17) / 17.0 + 0.1;
    }
  }
  kernel_triangular_last_column(N, A, B, C, D);
  print_array("A", &A[0][0], (long)(N + 6) * (N + 6));
  print_array("B", &B[0][0], (long)(N + 6) * (N + 6));
  print_array("C", C, (long)(N + 6));
  print_array("D", &D[0][0], (long)(N + 6) * (N + 6));
  return 0;
}
