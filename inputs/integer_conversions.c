/* integer_conversions.c -- statement bodies compute in C's types: an int
 * iterator times an unsigned element converts the iterator to unsigned (and
 * wraps), a comparison of an unsigned element with `i - 5` compares as
 * unsigned, literals keep their type (`5u`, `1000000L`, `3ul`), and `-(-x)`
 * stays a double negation.  The printed code computes with `long`
 * iterators, so each conversion must be printed.
 * (Random campaign of the generator's integer shapes: `X[i] * i` did not
 * wrap, `5u` was printed `5`, and `-(-B[i])` was printed `--B[i]`, which
 * decremented B.)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default long).  Prints every output array.
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
#  define N 2000
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE long
#endif

#define DATA_IS_INTEGER ((DATA_TYPE)0.5 == (DATA_TYPE)0)

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    if (DATA_IS_INTEGER)
      printf("%ld", (long)a[i]);
    else
      printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_integer_conversions(int n, unsigned X[N], int I[N],
                                       long L[N], DATA_TYPE R[N],
                                       DATA_TYPE C[N], DATA_TYPE U[N],
                                       DATA_TYPE Q[N], DATA_TYPE W[N],
                                       int B[N], int D[N])
{
  int i;

#pragma scop
  for (i = 0; i < n; i++) {
    R[i] = X[i] * i;
    C[i] = X[i] > i - 5 ? 1 : 0;
    U[i] = I[i] % 4u + (I[i] < 5u ? 20 : 10);
    Q[i] = L[i] / 3ul;
    W[i] = I[i] * 1000000L * 1000L;
    D[i] = -(-B[i]) + -(-3);
  }
#pragma endscop
}

int main(void)
{
  static unsigned X[N];
  static int I[N], B[N], D[N];
  static long L[N];
  static DATA_TYPE R[N], C[N], U[N], Q[N], W[N], Bt[N], Dt[N];
  int i;

  for (i = 0; i < N; i++) {
    X[i] = 4000000000u - 77u * (unsigned)i;
    I[i] = (i % 3) - 1 - 1000 * (i % 5);
    L[i] = (i % 2 ? -1L : 1L) * (3000000000L + i);
    B[i] = 1 - i;
  }

  kernel_integer_conversions(N, X, I, L, R, C, U, Q, W, B, D);

  for (i = 0; i < N; i++) {
    Bt[i] = B[i];
    Dt[i] = D[i];
  }
  print_array("R", R, N);
  print_array("C", C, N);
  print_array("U", U, N);
  print_array("Q", Q, N);
  print_array("W", W, N);
  print_array("B", Bt, N);
  print_array("D", Dt, N);
  return 0;
}
