/* restrict_pointers.c -- pointer parameters declared `restrict`, as C
 * libraries write them: a matrix-vector product over `const double
 * *restrict x` and `double *restrict y`, a 5-point stencil between two
 * `double (*restrict)[M]` grids, and an axpy. `restrict` states that no
 * other name reaches their elements, so each is an array whose first
 * extent is unknown (as `double A[][M]`); without it polycuda refuses the
 * pointer (the diagnostics test pointer_access.c).
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
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
#  define N 200
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4000
# endif
#endif
#define M (N + 2)

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

static void mat_vec(int n, int m, double (*restrict A)[M],
                    const double *restrict x, double *restrict y)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i] = 0.0;
    for (int j = 0; j < m; j++)
      y[i] += A[i][j] * x[j];
  }
#pragma endscop
}

static void stencil(int n, int steps, double (*restrict u)[M],
                    double (*restrict v)[M])
{
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i][j] = 0.2 * (u[i][j] + u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                         u[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma endscop
}

static void axpy(int n, double a, const double *restrict x,
                 double *restrict y)
{
#pragma scop
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
#pragma endscop
}

int main(void)
{
  static double A[N][M], u[N][M], v[N][M], x[M], y[N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * 7 + j * 11) % 17) / 17;
      u[i][j] = (double)((i * 3 + j * 5) % 13) / 13;
    }
  for (j = 0; j < M; j++)
    x[j] = (double)(j % 9) / 9;

  mat_vec(N, M, A, x, y);
  stencil(N, 4, u, v);
  axpy(N, 0.5, x, y);

  print_array("y", y, N);
  print_array("u", &u[0][0], (long)N * M);
  print_array("v", &v[0][0], (long)N * M);
  return 0;
}
