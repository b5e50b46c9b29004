/* imperfect.c -- imperfectly nested loops: s = A*x with the initialisation in the outer loop
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
#  define N 36
# endif
# ifndef M
#  define M 44
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 130
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
# ifndef M
#  define M 420
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4000
# endif
# ifndef M
#  define M 4000
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

static void kernel_imperfect(int n, int m, DATA_TYPE A[N][M], DATA_TYPE x[M], DATA_TYPE s[N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    s[i] = 0;
    for (j = 0; j < m; j++)
      s[i] += A[i][j] * x[j];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], x[M], s[N];
  int i, j;

  for (i = 0; i < N; i++) {
    s[i] = -1;  /* overwritten by the kernel */
    for (j = 0; j < M; j++)
      A[i][j] = (DATA_TYPE)((3 * i + j) % M) / M - 0.25;
  }
  for (j = 0; j < M; j++)
    x[j] = (DATA_TYPE)((j * 7) % 11) / 11 + 0.5;

  kernel_imperfect(N, M, A, x, s);

  print_array("s", s, N);
  return 0;
}
