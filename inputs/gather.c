/* gather.c -- gathers through index arrays: x[idx[i]], rows and columns through a permutation, a double indirection
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
#  define N 64
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 256
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1024
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4000
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

/* Reads through index arrays are may-reads of the whole array: the loops
 * that only read through them stay parallel. A subscript may be any integer
 * expression (a data-dependent ternary, a bitwise and). */
static void kernel_gather(int n, int idx[N], int perm[N], DATA_TYPE x[N],
                          DATA_TYPE A[N][N], DATA_TYPE y[N], DATA_TYPE z[N],
                          DATA_TYPE C[N][N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++)
    y[i] = x[idx[i]];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[i][j] = A[i][perm[j]] + 0.5 * A[perm[i]][j] + y[idx[j]] +
                0.25 * A[idx[i] > n / 2 ? i : j][idx[j] & 7];
  for (i = 0; i < n; i++)
    z[i] = x[idx[perm[i]]] * y[(idx[i] + perm[i]) % n];
#pragma endscop
}

int main(void)
{
  static int idx[N], perm[N];
  static DATA_TYPE x[N], A[N][N], y[N], z[N], C[N][N];
  int i, j;

  for (i = 0; i < N; i++) {
    idx[i] = (i * 5 + 3) % N;
    perm[i] = N - 1 - i;
    x[i] = (DATA_TYPE)((i * 3 + 1) % 11) / 11;
    y[i] = z[i] = 0;
    for (j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 7) % N) / N;
      C[i][j] = 0;
    }
  }

  kernel_gather(N, idx, perm, x, A, y, z, C);

  print_array("y", y, N);
  print_array("z", z, N);
  print_array("C", &C[0][0], (long)N * N);
  return 0;
}
