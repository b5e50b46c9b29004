/* hoisted_reduction.c -- reductions inside a sequential loop inside a parallel one
 * (trmm's band [j, i, k]): a sum, a maximum over a downward loop, and a forward
 * substitution that reads the rows earlier iterations of i wrote
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
# ifndef M
#  define M 20
# endif
# ifndef N
#  define N 30
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 60
# endif
# ifndef N
#  define N 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 200
# endif
# ifndef N
#  define N 240
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1000
# endif
# ifndef N
#  define N 1200
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

static void kernel_hoisted_reduction(int m, int n, DATA_TYPE A[M][M], DATA_TYPE B[M][N],
                                     DATA_TYPE C[M][N], DATA_TYPE D[M][N])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      for (k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      for (k = m - 1; k > i; k--)
        C[i][j] = C[i][j] > A[k][i] * C[k][j] ? C[i][j] : A[k][i] * C[k][j];
  for (i = 1; i < m; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < i; k++)
        D[i][j] -= A[i][k] * D[k][j];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[M][M], B[M][N], C[M][N], D[M][N];
  int i, j;

  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      A[i][j] = (DATA_TYPE)((i + 2 * j) % M) / (4 * M);
    for (j = 0; j < N; j++) {
      B[i][j] = (DATA_TYPE)((N + (i - j)) % N) / N;
      C[i][j] = (DATA_TYPE)((i * j + 3) % N) / N;
      D[i][j] = (DATA_TYPE)((i + 3 * j) % N) / N;
    }
  }

  kernel_hoisted_reduction(M, N, A, B, C, D);

  print_array("B", &B[0][0], (long)M * N);
  print_array("C", &C[0][0], (long)M * N);
  print_array("D", &D[0][0], (long)M * N);
  return 0;
}
