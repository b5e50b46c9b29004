/* jacobi_2d.c -- 2-D Jacobi stencil (C99 VLA parameters, loop variables declared in the for)
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
#  define N 90
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TSTEPS
#  define TSTEPS 100
# endif
# ifndef N
#  define N 250
# endif
#elif defined(LARGE_DATASET)
# ifndef TSTEPS
#  define TSTEPS 500
# endif
# ifndef N
#  define N 1300
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

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE A[n][n], DATA_TYPE B[n][n])
{
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
  }
#pragma endscop
}

int main(void)
{
  int n = N;
  DATA_TYPE (*A)[n] = (DATA_TYPE (*)[n])malloc(sizeof(DATA_TYPE) * n * n);
  DATA_TYPE (*B)[n] = (DATA_TYPE (*)[n])malloc(sizeof(DATA_TYPE) * n * n);

  if (!A || !B)
    return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = ((DATA_TYPE)i * (j + 2) + 2) / n;
      B[i][j] = ((DATA_TYPE)i * (j + 3) + 3) / n;
    }

  kernel_jacobi_2d(TSTEPS, n, A, B);

  print_array("A", &A[0][0], (long)n * n);
  print_array("B", &B[0][0], (long)n * n);
  free(A);
  free(B);
  return 0;
}
