/* skewed_guard.c -- triangular nests under a time loop whose dependences make
 * the scheduler skew them (found by outside testing: a kernel guard lost the
 * lower bound j >= 1 and ran j = 0)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or -DN=... -DTSTEPS=...
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
#  define TSTEPS 3
# endif
# ifndef N
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef TSTEPS
#  define TSTEPS 4
# endif
# ifndef N
#  define N 60
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 4
# endif
# ifndef N
#  define N 100
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 5
# endif
# ifndef N
#  define N 160
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

static void kernel_skewed_guard(int n, int T, DATA_TYPE A[n + 6][n + 6],
                                DATA_TYPE B[n + 6][n + 6][n + 6])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++) {
      for (int j = 1; j < n; j++) {
        for (int k = 0; k < j + 1; k++)
          B[i + 1][j + 1][k] = ((1.50 + B[i + 1][k + 1][i]) + 0.75 * B[j + 2][i][i + 1] * A[k + 3][k + 3]);
        A[j][i] = (0.5 * (B[i + 2][j][i] + 0.50) + (B[j - 1][j + 1][i - 1] - A[i - 1][i + 1]));
      }
      for (int j = 1; j < n; j++) {
        for (int k = 1; k < n - 1; k++)
          B[j + 1][i][k + 2] += 0.5 * (((A[k - 1][i + 2] + B[k - 1][j + 3][k + 3]) - 0.75 * B[j][k + 2][k + 2] * B[i + 1][k - 1][k + 1]));
        for (int k = 0; k < n; k++)
          B[i + 3][j + 1][k + 1] = 0.50;
      }
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N + 6][N + 6], B[N + 6][N + 6][N + 6];
  for (int x = 0; x < N + 6; x++)
    for (int y = 0; y < N + 6; y++) {
      A[x][y] = (DATA_TYPE)((7 * x + 3 * y) % 17) / 17.0 + 0.1;
      for (int z = 0; z < N + 6; z++)
        B[x][y][z] = (DATA_TYPE)((7 * x + 3 * y + 5 * z) % 17) / 17.0 + 0.1;
    }
  kernel_skewed_guard(N, TSTEPS, A, B);
  print_array("A", &A[0][0], (long)(N + 6) * (N + 6));
  print_array("B", &B[0][0][0], (long)(N + 6) * (N + 6) * (N + 6));
  return 0;
}
