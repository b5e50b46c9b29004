/* gramschmidt.c -- modified Gram-Schmidt QR decomposition A = Q*R of an M x N matrix (M >= N)
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
#  define M 30
# endif
# ifndef N
#  define N 20
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 80
# endif
# ifndef N
#  define N 60
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 240
# endif
# ifndef N
#  define N 200
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1100
# endif
# ifndef N
#  define N 900
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

#define SQRT_FUN(x) sqrt(x)

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

static void kernel_gramschmidt(int m, int n, DATA_TYPE A[M][N], DATA_TYPE R[N][N], DATA_TYPE Q[M][N])
{
  int i, j, k;
  DATA_TYPE nrm;

#pragma scop
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = SQRT_FUN(nrm);
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[M][N], R[N][N], Q[M][N];
  int i, j;

  /* full column rank and well conditioned: a dominant "diagonal" plus small entries */
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 1) % M) / M + (i == j ? 4.0 : 0.0);
      Q[i][j] = 0.0;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      R[i][j] = 0.0;

  kernel_gramschmidt(M, N, A, R, Q);

  print_array("A", &A[0][0], (long)M * N);
  print_array("R", &R[0][0], (long)N * N);
  print_array("Q", &Q[0][0], (long)M * N);
  return 0;
}
