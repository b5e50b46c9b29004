/* floyd_warshall.c -- all-pairs shortest paths (Floyd-Warshall), int by default
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default int).  Prints every output array.
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
#  define N 60
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 180
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 500
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2000
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE int
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

#define MIN_OF(a, b) ((a) < (b) ? (a) : (b))

static void kernel_floyd_warshall(int n, DATA_TYPE path[N][N])
{
  int i, j, k;

#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        path[i][j] = MIN_OF(path[i][j], path[i][k] + path[k][j]);
#pragma endscop
}

int main(void)
{
  static DATA_TYPE path[N][N];
  int i, j;

  /* 999 = no direct edge */
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      if (i == j)
        path[i][j] = 0;
      else if ((i + 2 * j) % 5 == 0 || (3 * i + j) % 7 == 0)
        path[i][j] = 999;
      else
        path[i][j] = (i * j) % 9 + 1;
    }

  kernel_floyd_warshall(N, path);

  print_array("path", &path[0][0], (long)N * N);
  return 0;
}
