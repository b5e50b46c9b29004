/* gesummv.c -- scalar, vector and matrix multiplication: y = alpha*A*x + beta*B*x
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
#  define N 30
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 90
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 250
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1300
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

static void kernel_gesummv(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[N][N],
                           DATA_TYPE B[N][N], DATA_TYPE tmp[N], DATA_TYPE x[N], DATA_TYPE y[N])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (int j = 0; j < n; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N], B[N][N], tmp[N], x[N], y[N];
  DATA_TYPE alpha = 1.5, beta = 1.2;

  for (int i = 0; i < N; i++) {
    x[i] = (DATA_TYPE)(i % N) / N;
    for (int j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
      B[i][j] = (DATA_TYPE)((i * j + 2) % N) / N;
    }
  }

  kernel_gesummv(N, alpha, beta, A, B, tmp, x, y);

  print_array("tmp", tmp, N);
  print_array("y", y, N);
  return 0;
}
