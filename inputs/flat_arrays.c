/* flat_arrays.c -- matrices kept in flat arrays and indexed by hand, as C
 * programs write them: `A[i * nk + k]`, `u[(i - 1) * n + j]`, a 3-D
 * `x[(i * n + j) * m + k]`, a `size_t` row length and a `double a[]`
 * parameter. polycuda recovers each array's rows from its subscripts
 * (delinearization) and reads `A[i * nk + k]` as `A[i][k]`. That is exact
 * where every column stays within its row; `shift_rows` reads columns past
 * its row length when p > m, so the scop checks that on entry and runs its
 * original statements when it fails (its second call).
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stddef.h>
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
#  define N 400
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 1500
# endif
#endif
#define NI N
#define NJ (N + 3)
#define NK (N + 5)
#define D3 (N / 4 + 2)

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

/* C = beta * C + alpha * A * B, every matrix a flat array. */
static void gemm(int ni, int nj, int nk, double alpha, double beta,
                 double *restrict C, const double *restrict A,
                 const double *restrict B)
{
#pragma scop
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
#pragma endscop
}

/* A 5-point stencil over rows of n elements, with (i - 1) * n + j. */
static void stencil(int n, int steps, double *restrict u, double *restrict v)
{
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.2 * (u[i * n + j] + u[(i - 1) * n + j] +
                              u[(i + 1) * n + j] + u[i * n + j - 1] +
                              u[i * n + (j + 1)]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i * n + j] = v[i * n + j];
  }
#pragma endscop
}

/* A 3-D array of n x n x m elements summed along its last dimension, with
 * a row length of type size_t. */
static void sum_last(int n, size_t m, const double *restrict x,
                     double *restrict s)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      s[i * n + j] = 0.0;
      for (size_t k = 0; k < m; k++)
        s[i * n + j] += x[(i * n + j) * m + k];
    }
#pragma endscop
}

/* Each row of p elements of a (rows of m elements) moved one row down:
 * exact as rows only where p <= m. */
static void shift_rows(int n, int m, int p, double a[])
{
#pragma scop
  for (int i = n - 1; i >= 1; i--)
    for (int j = 0; j < p; j++)
      a[i * m + j] = a[(i - 1) * m + j] + 1.0;
#pragma endscop
}

int main(void)
{
  double *A = malloc(sizeof(double) * NI * NK);
  double *B = malloc(sizeof(double) * NK * NJ);
  double *C = malloc(sizeof(double) * NI * NJ);
  double *u = malloc(sizeof(double) * N * N);
  double *v = malloc(sizeof(double) * N * N);
  double *x = malloc(sizeof(double) * N * N * D3);
  double *s = malloc(sizeof(double) * N * N);
  double *a = malloc(sizeof(double) * (N + 2) * NJ);
  double *b = malloc(sizeof(double) * (N + 2) * NJ);
  long i;

  for (i = 0; i < (long)NI * NK; i++)
    A[i] = (double)((i * 7) % 17) / 17;
  for (i = 0; i < (long)NK * NJ; i++)
    B[i] = (double)((i * 5) % 13) / 13;
  for (i = 0; i < (long)NI * NJ; i++)
    C[i] = (double)((i * 3) % 11) / 11;
  for (i = 0; i < (long)N * N; i++) {
    u[i] = (double)((i * 3 + 1) % 19) / 19;
    v[i] = 0.0;
  }
  for (i = 0; i < (long)N * N * D3; i++)
    x[i] = (double)((i * 11) % 23) / 23;
  for (i = 0; i < (long)(N + 2) * NJ; i++)
    a[i] = b[i] = (double)(i % 7);

  gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
  stencil(N, 3, u, v);
  sum_last(N, D3, x, s);
  shift_rows(N, NJ, NJ - 2, a);   /* rows do not overlap: parallel */
  shift_rows(N, NJ - 3, NJ, b);   /* p > m: the original statements */

  print_array("C", C, (long)NI * NJ);
  print_array("u", u, (long)N * N);
  print_array("s", s, (long)N * N);
  print_array("a", a, (long)(N + 2) * NJ);
  print_array("b", b, (long)(N + 2) * NJ);
  free(A); free(B); free(C); free(u); free(v); free(x); free(s);
  free(a); free(b);
  return 0;
}
