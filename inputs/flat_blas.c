/* flat_blas.c -- BLAS-style routines over flat row-major matrices with
 * leading dimensions, as C libraries write them: `A[i * lda + k]` where
 * lda >= the columns used, a matrix-vector product, a transpose between two
 * leading dimensions and a rank-1 update (dger), each called on matrices
 * padded to wider rows. polycuda reads each matrix as rows of lda elements
 * (delinearization) and checks on entry that every column stays within its
 * row (k < lda here): the calls below pass, so the kernels run in parallel.
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
#  define N 20
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 100
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
#define LD (N + 7)

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

/* C (m x n) = alpha * A (m x k) * B (k x n) + beta * C. */
static void dgemm(int m, int n, int k, double alpha, const double *restrict A,
                  int lda, const double *restrict B, int ldb, double beta,
                  double *restrict C, int ldc)
{
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double sum = 0.0;
      for (int p = 0; p < k; p++)
        sum += A[i * lda + p] * B[p * ldb + j];
      C[i * ldc + j] = alpha * sum + beta * C[i * ldc + j];
    }
#pragma endscop
}

/* y = A x (m x n). */
static void dgemv(int m, int n, const double *restrict A, int lda,
                  const double *restrict x, double *restrict y)
{
#pragma scop
  for (int i = 0; i < m; i++) {
    y[i] = 0.0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * lda + j] * x[j];
  }
#pragma endscop
}

/* B = A^T, A m x n with rows of lda, B n x m with rows of ldb. */
static void transpose(int m, int n, const double *restrict A, int lda,
                      double *restrict B, int ldb)
{
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      B[j * ldb + i] = A[i * lda + j];
#pragma endscop
}

/* A += alpha * x y^T. */
static void dger(int m, int n, double alpha, const double *restrict x,
                 const double *restrict y, double *restrict A, int lda)
{
#pragma scop
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      A[i * lda + j] += alpha * x[i] * y[j];
#pragma endscop
}

int main(void)
{
  double *A = malloc(sizeof(double) * N * LD);
  double *B = malloc(sizeof(double) * N * LD);
  double *C = malloc(sizeof(double) * N * LD);
  double *T = malloc(sizeof(double) * N * LD);
  double *x = malloc(sizeof(double) * N);
  double *y = malloc(sizeof(double) * N);
  long i;

  for (i = 0; i < (long)N * LD; i++) {
    A[i] = (double)((i * 7) % 17) / 17;
    B[i] = (double)((i * 5 + 3) % 13) / 13;
    C[i] = (double)((i * 3) % 11) / 11;
    T[i] = -1.0;
  }
  for (i = 0; i < N; i++)
    x[i] = (double)((i * 3) % 7) / 7;

  dgemm(N, N - 2, N - 1, 1.5, A, LD, B, LD - 3, 0.5, C, LD);
  dgemv(N, N - 1, A, LD, x, y);
  transpose(N - 1, N, B, LD - 2, T, LD);
  dger(N, N - 3, 0.25, x, y, A, LD);

  print_array("C", C, (long)N * LD);
  print_array("y", y, N);
  print_array("T", T, (long)N * LD);
  print_array("A", A, (long)N * LD);
  free(A); free(B); free(C); free(T); free(x); free(y);
  return 0;
}
