/* mvt.c -- two matrix-vector products: x1 += A*y1, x2 += A^T*y2
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

static void kernel_mvt(int n, DATA_TYPE x1[N], DATA_TYPE x2[N], DATA_TYPE y_1[N],
                       DATA_TYPE y_2[N], DATA_TYPE A[N][N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

int main(void)
{
  static DATA_TYPE x1[N], x2[N], y_1[N], y_2[N], A[N][N];
  int i, j;

  for (i = 0; i < N; i++) {
    x1[i] = (DATA_TYPE)(i % N) / N;
    x2[i] = (DATA_TYPE)((i + 1) % N) / N;
    y_1[i] = (DATA_TYPE)((i + 3) % N) / N;
    y_2[i] = (DATA_TYPE)((i + 4) % N) / N;
    for (j = 0; j < N; j++)
      A[i][j] = (DATA_TYPE)(i * j % N) / N;
  }

  kernel_mvt(N, x1, x2, y_1, y_2, A);

  print_array("x1", x1, N);
  print_array("x2", x2, N);
  return 0;
}
