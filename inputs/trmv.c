/* trmv.c -- lower-triangular matrix-vector product y = L*x (j runs from 0 to i)
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
#  define N 4000
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

static void kernel_trmv(int n, DATA_TYPE L[N][N], DATA_TYPE x[N], DATA_TYPE y[N])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    for (int j = 0; j <= i; j++)
      y[i] += L[i][j] * x[j];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE L[N][N], x[N], y[N];

  for (int i = 0; i < N; i++) {
    x[i] = (DATA_TYPE)(i + 1) / N;
    for (int j = 0; j < N; j++)
      L[i][j] = j <= i ? (DATA_TYPE)((i * j + 3) % N) / N : 0;
  }

  kernel_trmv(N, L, x, y);

  print_array("y", y, N);
  return 0;
}
