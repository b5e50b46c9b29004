/* block_scope.c -- declarations inside blocks are new objects: sibling
 * loops that each declare their own `t` (and a temporary array `u` in one
 * of them, which makes that loop parallel once it is private), a local that
 * shadows a variable of the function, and blocks at the top of the scop.
 * (Issue: same-named locals were merged into one array, printed three
 * times, and fused the loops through it.)
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
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 400
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 4000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 400000
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

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

static void kernel_block_scope(int n, DATA_TYPE A[N], DATA_TYPE B[N],
                               DATA_TYPE C[N], DATA_TYPE D[N],
                               DATA_TYPE out[4])
{
  DATA_TYPE s = 0.5;

#pragma scop
  for (int i = 0; i < n; i++) { DATA_TYPE t = A[i] * 2.0; B[i] = t + 1.0; }
  for (int i = 0; i < n; i++) { DATA_TYPE t = B[i] - A[i]; DATA_TYPE u[4]; u[0] = t; u[1] = t * t;
                                u[2] = u[1] * t; u[3] = u[2] * t; C[i] = u[0] + u[1] + u[2] + u[3]; }
  for (int i = 1; i < n; i++) { DATA_TYPE t = C[i - 1]; C[i] = C[i] * 0.5 + t * 1e-3; }
  for (int i = 0; i < n; i++) {
    DATA_TYPE s = A[i] + 1.0;
    D[i] = s * s;
  }
  { DATA_TYPE t = s * 3.0; out[0] = t; }
  { DATA_TYPE t = s + A[0]; out[1] = t + s; }
  for (int i = 0; i < n; i++) {
    DATA_TYPE v[3];
    for (int k = 0; k < 3; k++)
      v[k] = A[i] * (k + 1);
    D[i] = D[i] + v[0] * v[1] - v[2];
  }
#pragma endscop
  out[2] = s;
}

int main(void)
{
  static DATA_TYPE A[N], B[N], C[N], D[N], out[4];
  int i;

  for (i = 0; i < N; i++) {
    A[i] = (DATA_TYPE)(i % 17) / 17;
    B[i] = 0;
    C[i] = (DATA_TYPE)(i % 5) / 5;
    D[i] = 0;
  }
  for (i = 0; i < 4; i++)
    out[i] = 0;

  kernel_block_scope(N, A, B, C, D, out);

  print_array("A", A, N);
  print_array("B", B, N);
  print_array("C", C, N);
  print_array("D", D, N);
  print_array("out", out, 4);
  return 0;
}
