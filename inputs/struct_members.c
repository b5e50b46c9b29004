/* struct_members.c -- array fields of structs, as C programs keep a
 * problem's data together: a grid relaxed through `struct grid *restrict
 * g` (`g->val[i][j]`, `g->rhs[i]`), and a file-scope `struct cloud C` whose
 * array of point structs and weights are updated together (`C.p[i].y`,
 * `C.w[i]`). Each array field is an array of the scop of its own
 * (`g_val`, `C_p` in kernels), copied from and to the field; the report
 * and the C target print the fields as written.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 24
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 500
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1500
# endif
#endif

struct grid { int n; double val[N][N]; double rhs[N]; };
struct pt { double x, y; };
struct cloud { struct pt p[N]; double w[N]; };

struct cloud C;

/* Jacobi sweeps of g's grid into a second grid and back. */
static void relax(int n, int steps, struct grid *restrict g,
                  double tmp[N][N])
{
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        tmp[i][j] = 0.25 * (g->val[i - 1][j] + g->val[i + 1][j] +
                            g->val[i][j - 1] + g->val[i][j + 1]) +
                    0.01 * g->rhs[i];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        g->val[i][j] = tmp[i][j];
  }
#pragma endscop
}

static void weigh(int n)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    C.p[i].y = C.p[i].x * C.w[i];
    C.w[i] = C.w[i] * 0.5 + C.p[i].y;
  }
#pragma endscop
}

int main(void)
{
  static struct grid g;
  static double tmp[N][N];
  int i, j;

  for (i = 0; i < N; i++) {
    g.rhs[i] = (i % 3) * 0.1;
    C.w[i] = (i % 5) / 5.0;
    C.p[i].x = (i % 7) / 7.0;
    C.p[i].y = 0.0;
    for (j = 0; j < N; j++) {
      g.val[i][j] = ((i * 3 + j) % 11) / 11.0;
      tmp[i][j] = 0.0;
    }
  }
  g.n = N;
  relax(g.n, 3, &g, tmp);
  weigh(N - 1);

  printf("== val\n");
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      printf("%.10e%c", g.val[i][j], j == N - 1 ? '\n' : ' ');
  printf("== C\n");
  for (i = 0; i < N; i++)
    printf("%.10e %.10e %.10e\n", C.p[i].x, C.p[i].y, C.w[i]);
  return 0;
}
