/* chained.c -- chained assignments (x = y = v, as PolyBench's deriche writes its coefficients)
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
# ifndef M
#  define M 36
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 110
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
# ifndef M
#  define M 380
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 3000
# endif
# ifndef M
#  define M 2800
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

/* Scalars set by a chain and used in a nest, a three-link chain over two
 * arrays and a scalar, a compound assignment at the head of a chain, and a
 * chain through an int whose conversion the value keeps (C: the value of
 * `y = v` is y's value after the assignment); then statements after an
 * if/else and a block at the top level of the scop. */
static void kernel_chained(int n, int m, DATA_TYPE A[N][M], DATA_TYPE B[N][M],
                           DATA_TYPE C[N][M], DATA_TYPE s[N], int k[N],
                           DATA_TYPE t[N])
{
  DATA_TYPE a1, a2, c1, c2, last;
#pragma scop
  a1 = a2 = (DATA_TYPE)0.25;
  c1 = c2 = 1;
  c1 = c1 + a1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = a1 * A[i][j] + c1 * B[i][j] - a2 * c2;
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m; j++)
      C[i][j] = B[i][j] = last = A[i][j - 1] + (DATA_TYPE)0.5 * B[i][j];
  for (int i = 0; i < n; i++) {
    s[i] += t[i] = A[i][0] + last;
    t[i] = k[i] = (int)(s[i] * 3) + i;
  }
  /* At the top level too, an if/else and a block take several positions. */
  if (n < 0)
    last = 0;
  else
    last = s[1];
  s[0] = last;
  {
    c2 = s[2];
    c1 = c2 * 2;
  }
  s[3] = c1;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], B[N][M], C[N][M], s[N], t[N];
  static int k[N];

  for (int i = 0; i < N; i++) {
    s[i] = (DATA_TYPE)(i % 5) / 4;
    for (int j = 0; j < M; j++) {
      A[i][j] = (DATA_TYPE)((i * (j + 1) + 5) % M) / M;
      B[i][j] = (DATA_TYPE)((i + 2 * j) % 7) / 7;
      C[i][j] = -1;
    }
  }

  kernel_chained(N, M, A, B, C, s, k, t);

  print_array("A", &A[0][0], (long)N * M);
  print_array("B", &B[0][0], (long)N * M);
  print_array("C", &C[0][0], (long)N * M);
  print_array("s", s, N);
  print_array("t", t, N);
  for (int i = 0; i < N; i++)
    printf("%d%c", k[i], (i % 8 == 7 || i == N - 1) ? '\n' : ' ');
  return 0;
}
