/* unsigned_wrap.c -- unsigned arithmetic, which C computes modulo the range
 * of its type where the polyhedral model's integers do not wrap.  The loop
 * bound `q < n` converts the int `n` to unsigned: the translation holds for
 * n >= 0 only, so the printed code checks that when the scop starts and runs
 * the original statements otherwise (main calls the kernel with a negative
 * `n` too).  Statement bodies compute with the iterators' and literals' own
 * types: `i - 5` with an unsigned `i` wraps, `i - 5L` does not, `k * 1u`
 * converts an int `k`.
 * (Issue: an unsigned iterator compared with a signed parameter was modelled
 * as plain integer arithmetic, and bodies computed unsigned values in long.)
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

static void kernel_unsigned_wrap(int n, DATA_TYPE A[N + 8], DATA_TYPE B[N],
                                 DATA_TYPE C[N], unsigned U[N],
                                 DATA_TYPE out[8])
{
  unsigned q, i;
  int k;

#pragma scop
  for (q = 0; q < n + 4u; q++)
    A[q] = A[q] + q - 1;
  out[0] = q;
  for (q = 2; q < n && q < N - 10; q += 2)
    A[q] = A[q] * 0.5 + q;
  out[1] = q;
  for (i = 0; i < n && i < N; i++) {
    B[i] = i - 5;
    C[i] = i - 5L;
  }
  for (k = 0; k < n; k++) {
    C[k] = C[k] + (k * 1u - 3u);
    U[k] = k - 20;
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N + 8], B[N], C[N], out[8];
  static unsigned U[N];
  DATA_TYPE Uf[N];
  int i, run;

  for (run = 0; run < 2; run++) {
    for (i = 0; i < N + 8; i++)
      A[i] = (DATA_TYPE)(i % 17) / 17;
    for (i = 0; i < N; i++) {
      B[i] = C[i] = (DATA_TYPE)((7 * i) % 13) / 13;
      U[i] = 7;
    }
    for (i = 0; i < 8; i++)
      out[i] = -1;

    /* n = N; then n = -2, for which `q < n + 4u` runs q = 0, 1 (n + 4u
       wraps back to 2) and `q < n` would run until q wraps: the second
       bounds keep it short. */
    kernel_unsigned_wrap(run == 0 ? N : -2, A, B, C, U, out);

    for (i = 0; i < N; i++)
      Uf[i] = U[i];
    print_array("A", A, N + 8);
    print_array("B", B, N);
    print_array("C", C, N);
    print_array("U", Uf, N);
    print_array("out", out, 8);
  }
  return 0;
}
