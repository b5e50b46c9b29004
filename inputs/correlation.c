/* correlation.c -- correlation matrix of N observations of M variables
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
#  define M 28
# endif
# ifndef N
#  define N 32
# endif
#elif defined(SMALL_DATASET)
# ifndef M
#  define M 80
# endif
# ifndef N
#  define N 100
# endif
#elif defined(MEDIUM_DATASET)
# ifndef M
#  define M 240
# endif
# ifndef N
#  define N 260
# endif
#elif defined(LARGE_DATASET)
# ifndef M
#  define M 1200
# endif
# ifndef N
#  define N 1400
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

static void kernel_correlation(int m, int n, DATA_TYPE float_n, DATA_TYPE data[N][M],
                               DATA_TYPE corr[M][M], DATA_TYPE mean[M], DATA_TYPE stddev[M])
{
  int i, j, k;
  DATA_TYPE eps = 0.1;

#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = SQRT_FUN(stddev[j]);
    /* avoid dividing by a (near) zero deviation */
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  /* centre and reduce the columns */
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= SQRT_FUN(float_n) * stddev[j];
    }
  /* corr = data^T * data, symmetric with unit diagonal */
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE data[N][M], corr[M][M], mean[M], stddev[M];
  DATA_TYPE float_n = (DATA_TYPE)N;
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (DATA_TYPE)(i * j % M) / M + (DATA_TYPE)((i + 3 * j) % 17) / 17;

  kernel_correlation(M, N, float_n, data, corr, mean, stddev);

  print_array("corr", &corr[0][0], (long)M * M);
  print_array("mean", mean, M);
  print_array("stddev", stddev, M);
  return 0;
}
