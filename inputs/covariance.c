/* covariance.c -- covariance matrix of N observations of M variables (malloc'd arrays)
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

static void kernel_covariance(int m, int n, DATA_TYPE float_n, DATA_TYPE data[N][M],
                              DATA_TYPE cov[M][M], DATA_TYPE mean[M])
{
  int i, j, k;

#pragma scop
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*data)[M] = (DATA_TYPE (*)[M])malloc(sizeof(DATA_TYPE) * N * M);
  DATA_TYPE (*cov)[M] = (DATA_TYPE (*)[M])malloc(sizeof(DATA_TYPE) * M * M);
  DATA_TYPE *mean = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M);
  DATA_TYPE float_n = (DATA_TYPE)N;
  int i, j;

  if (!data || !cov || !mean)
    return 1;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (DATA_TYPE)(i * j % M) / M + (DATA_TYPE)((2 * i + j) % 13) / 13;

  kernel_covariance(M, N, float_n, data, cov, mean);

  print_array("cov", &cov[0][0], (long)M * M);
  print_array("mean", mean, M);
  free(data); free(cov); free(mean);
  return 0;
}
