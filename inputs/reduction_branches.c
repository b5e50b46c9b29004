/* reduction_branches.c -- a reduction over j whose first statement updates
 * only some of the elements (under `if (i < 5)`) and whose second updates
 * all: the block's combine must write every element that any of them
 * updates (it took the first statement's elements only, and 35 of the 40
 * sums lost their lanes' partial results on OpenCL and CUDA).
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or -DN=...
 */
#include <stdio.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#ifndef N
# if defined(MINI_DATASET)
#  define N 40
# elif defined(SMALL_DATASET)
#  define N 200
# elif defined(MEDIUM_DATASET)
#  define N 1000
# else
#  define N 4000
# endif
#endif

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    printf("%.10e", a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}
static void kernel_reduction_branches(int n, double x[N], double A[N][N], double B[N][N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i < 5)
        x[i] += A[i][j];
      x[i] += B[i][j];
    }
#pragma endscop
}
int main(void)
{
  static double x[N], A[N][N], B[N][N];
  for (int i = 0; i < N; i++) {
    x[i] = i % 7 / 7.0;
    for (int j = 0; j < N; j++) { A[i][j] = (7 * i + 3 * j) % 17 / 17.0; B[i][j] = (3 * i + 5 * j) % 13 / 13.0; }
  }
  kernel_reduction_branches(N, x, A, B);
  print_array("x", x, N);
  return 0;
}
