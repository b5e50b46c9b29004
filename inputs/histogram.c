/* histogram.c -- histograms through an index array: h[a[i]]++, weighted and per-row
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
#  define N 200
# endif
# ifndef M
#  define M 16
# endif
# ifndef R
#  define R 8
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 2000
# endif
# ifndef M
#  define M 32
# endif
# ifndef R
#  define R 16
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 40000
# endif
# ifndef M
#  define M 64
# endif
# ifndef R
#  define R 64
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1000000
# endif
# ifndef M
#  define M 128
# endif
# ifndef R
#  define R 128
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

static void print_ints(const char *name, const int *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%d", a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

/* a[i] is the bin of element i; every loop that updates a bin through a[i]
 * may hit a bin an earlier iteration hit, so it stays sequential, except
 * across the rows r of H (the row subscript is affine: distinct rows). */
static void kernel_histogram(int n, int m, int r, int a[N], int b[R][N], DATA_TYPE x[N],
                             int h[M], DATA_TYPE w[M], int H[R][M], DATA_TYPE s[N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    h[a[i]]++;
  for (i = 0; i < n; i++)
    w[a[i]] += x[i] * 0.5;
  for (j = 0; j < r; j++)
    for (i = 0; i < n; i++)
      H[j][b[j][i]] += 1;
  for (i = 0; i < n; i++)
    s[i] = w[a[i]] + h[a[i]] + H[i % r][(a[i] + 1) % m];
#pragma endscop
}

int main(void)
{
  static int a[N], b[R][N], h[M], H[R][M];
  static DATA_TYPE x[N], w[M], s[N];
  int i, j;

  for (i = 0; i < N; i++) {
    a[i] = (i * 7 + i / 3) % M;
    x[i] = (DATA_TYPE)((i * 13 + 5) % 17) / 17;
    s[i] = 0;
    for (j = 0; j < R; j++)
      b[j][i] = (i * (j + 3) + j) % M;
  }
  for (i = 0; i < M; i++) {
    h[i] = i % 3;
    w[i] = (DATA_TYPE)i / M;
    for (j = 0; j < R; j++)
      H[j][i] = 0;
  }

  kernel_histogram(N, M, R, a, b, x, h, w, H, s);

  print_ints("h", h, M);
  print_array("w", w, M);
  print_ints("H", &H[0][0], (long)R * M);
  print_array("s", s, N);
  return 0;
}
