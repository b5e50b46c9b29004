/* gemver.c -- vector multiplication and matrix addition: A += u1 v1^T + u2 v2^T, x = beta A^T y + z, w = alpha A x
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
#  define N 2000
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

static void kernel_gemver(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N],
                          DATA_TYPE u1[N], DATA_TYPE v1[N], DATA_TYPE u2[N], DATA_TYPE v2[N],
                          DATA_TYPE w[N], DATA_TYPE x[N], DATA_TYPE y[N], DATA_TYPE z[N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (i = 0; i < n; i++)
    x[i] = x[i] + z[i];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];
  DATA_TYPE alpha = 1.5, beta = 1.2;
  DATA_TYPE fn = (DATA_TYPE)N;
  int i, j;

  for (i = 0; i < N; i++) {
    u1[i] = i;
    u2[i] = ((i + 1) / fn) / 2.0;
    v1[i] = ((i + 1) / fn) / 4.0;
    v2[i] = ((i + 1) / fn) / 6.0;
    y[i] = ((i + 1) / fn) / 8.0;
    z[i] = ((i + 1) / fn) / 9.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (j = 0; j < N; j++)
      A[i][j] = (DATA_TYPE)(i * j % N) / N;
  }

  kernel_gemver(N, alpha, beta, A, u1, v1, u2, v2, w, x, y, z);

  print_array("A", &A[0][0], (long)N * N);
  print_array("x", x, N);
  print_array("w", w, N);
  return 0;
}
