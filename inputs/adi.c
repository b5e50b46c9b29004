/* adi.c -- alternating direction implicit solver for 2-D heat diffusion (Thomas algorithm sweeps)
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
# ifndef TSTEPS
#  define TSTEPS 20
# endif
# ifndef N
#  define N 20
# endif
#elif defined(SMALL_DATASET)
# ifndef TSTEPS
#  define TSTEPS 40
# endif
# ifndef N
#  define N 60
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# ifndef N
#  define N 200
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 500
# endif
# ifndef N
#  define N 1000
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

static void kernel_adi(int tsteps, int n, DATA_TYPE u[N][N], DATA_TYPE v[N][N],
                       DATA_TYPE p[N][N], DATA_TYPE q[N][N])
{
  int t, i, j;
  DATA_TYPE DX, DY, DT, B1, B2, mul1, mul2, a, b, c, d, e, f;

#pragma scop
  DX = 1.0 / (DATA_TYPE)n;
  DY = 1.0 / (DATA_TYPE)n;
  DT = 1.0 / (DATA_TYPE)tsteps;
  B1 = 2.0;
  B2 = 1.0;
  mul1 = B1 * DT / (DX * DX);
  mul2 = B2 * DT / (DY * DY);
  a = -mul1 / 2.0;
  b = 1.0 + mul1;
  c = a;
  d = -mul2 / 2.0;
  e = 1.0 + mul2;
  f = d;

  for (t = 1; t <= tsteps; t++) {
    /* column sweep: implicit in the first index */
    for (i = 1; i < n - 1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1]
                   - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
      }
      v[n - 1][i] = 1.0;
      for (j = n - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
    /* row sweep: implicit in the second index */
    for (i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j = 1; j < n - 1; j++) {
        p[i][j] = -f / (d * p[i][j - 1] + e);
        q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j]
                   - d * q[i][j - 1]) / (d * p[i][j - 1] + e);
      }
      u[i][n - 1] = 1.0;
      for (j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE u[N][N], v[N][N], p[N][N], q[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      u[i][j] = (DATA_TYPE)(i + N - j) / N;

  kernel_adi(TSTEPS, N, u, v, p, q);

  print_array("u", &u[0][0], (long)N * N);
  return 0;
}
