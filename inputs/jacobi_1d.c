/* jacobi_1d.c -- 1-D Jacobi stencil, two statements per time step
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
#  define N 30
# endif
#elif defined(SMALL_DATASET)
# ifndef TSTEPS
#  define TSTEPS 40
# endif
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# ifndef N
#  define N 400
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 500
# endif
# ifndef N
#  define N 2000
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

static void kernel_jacobi_1d(int tsteps, int n, DATA_TYPE A[N], DATA_TYPE B[N])
{
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N], B[N];

  for (int i = 0; i < N; i++) {
    A[i] = ((DATA_TYPE)i + 2) / N;
    B[i] = ((DATA_TYPE)i + 3) / N;
  }

  kernel_jacobi_1d(TSTEPS, N, A, B);

  print_array("A", A, N);
  print_array("B", B, N);
  return 0;
}
