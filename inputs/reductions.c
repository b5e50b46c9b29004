/* reductions.c -- reductions whose loops the threads of a block share (sums into
 * a scalar, a row and a column, a product, a substitution that reads other
 * elements of the array it updates, an integer count, a back substitution
 * through a scalar inside a sequential loop, maxima and minima as conditional
 * expressions and fmin) and one that is not a reduction (its operand reads
 * the element it updates)
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
# ifndef M
#  define M 37
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
# ifndef M
#  define M 133
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 400
# endif
# ifndef M
#  define M 455
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2000
# endif
# ifndef M
#  define M 2300
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void print_ints(const char *name, const long *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%ld", a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_reductions(int n, int m, DATA_TYPE A[N][M],
                              DATA_TYPE L[N][N], DATA_TYPE x[M],
                              DATA_TYPE s[1], DATA_TYPE rows[N],
                              DATA_TYPE cols[M], DATA_TYPE prod[N],
                              DATA_TYPE b[N], DATA_TYPE sol[N],
                              long counts[N], DATA_TYPE self[N],
                              DATA_TYPE back[N], DATA_TYPE big[N],
                              DATA_TYPE small[M], long imax[N])
{
  DATA_TYPE w;
#pragma scop
  for (int j = 0; j < m; j++)
    s[0] += x[j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      rows[i] = A[i][j] + rows[i];
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      cols[j] -= A[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      prod[i] *= 1 + A[i][j] / 64;
  for (int i = 0; i < n; i++) {
    sol[i] = b[i];
    for (int j = 0; j < i; j++)
      sol[i] -= L[i][j] * sol[j];
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      counts[i] += i * j % 7;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      self[i] = self[i] + self[i] * A[i][j] / 128;
  for (int i = n - 1; i >= 0; i--) {
    w = b[i];
    for (int j = i + 1; j < n; j++)
      w -= L[j][i] * back[j];
    back[i] = w / 2;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      big[i] = (big[i] > A[i][j] * x[j]) ? big[i] : A[i][j] * x[j];
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      small[j] = fmin(small[j], A[i][j] - x[j]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      imax[i] = (i * j % 13 < imax[i]) ? imax[i] : i * j % 13;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][M], L[N][N], x[M], s[1], rows[N], cols[M], prod[N],
      b[N], sol[N], self[N], back[N], big[N], small[M];
  static long counts[N], imax[N];

  for (int i = 0; i < N; i++) {
    rows[i] = (DATA_TYPE)i / N;
    prod[i] = 1 + (DATA_TYPE)(i % 5) / 8;
    b[i] = 1 + (DATA_TYPE)(i % 11) / 11;
    counts[i] = i;
    self[i] = 1 + (DATA_TYPE)(i % 3) / 4;
    big[i] = -1;
    imax[i] = 3 + i % 5;
    for (int j = 0; j < M; j++)
      A[i][j] = (DATA_TYPE)((i * j + 1) % M) / M;
    for (int j = 0; j < N; j++)
      L[i][j] = (DATA_TYPE)((i + 2 * j) % 13) / (13 * (DATA_TYPE)N);
  }
  for (int j = 0; j < M; j++) {
    x[j] = 1 + (DATA_TYPE)j / M;
    cols[j] = (DATA_TYPE)(j % 4);
    small[j] = 2;
  }
  s[0] = 0.5;

  kernel_reductions(N, M, A, L, x, s, rows, cols, prod, b, sol, counts, self,
                    back, big, small, imax);

  print_array("s", s, 1);
  print_array("rows", rows, N);
  print_array("cols", cols, M);
  print_array("prod", prod, N);
  print_array("sol", sol, N);
  print_ints("counts", counts, N);
  print_array("self", self, N);
  print_array("back", back, N);
  print_array("big", big, N);
  print_array("small", small, M);
  print_ints("imax", imax, N);
  return 0;
}
