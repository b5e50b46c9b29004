/* iterator_exit.c -- loop variables declared outside their loops keep the
 * value C leaves in them: read after their loop inside the scop (as a value
 * and as a subscript) and after the scop, for increasing, strided and
 * decreasing loops, loops that run no iteration, and loops under a guard;
 * and loops whose condition holds again after it first fails (`l != m`,
 * `k < 5 || k > n`), which C ends at the first failure.
 * (Issue: the translated program dropped those values.)
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

static void kernel_iterator_exit(int n, int m, DATA_TYPE A[N + 2],
                                 DATA_TYPE B[N][N], DATA_TYPE out[16])
{
  int i, j, k, l, e;

#pragma scop
  for (i = 0; i < n; ++i)
    A[i] = A[i] + i;
  A[i] = i;
  out[0] = i;
  for (i = 0; i < n; i++) {
    for (j = n - 1; j >= 1; j -= 2)
      B[i][j] = B[i][j] * 0.5 + j;
    B[i][0] = B[i][0] + j;
  }
  A[i - 1] = j;
  out[1] = j;
  for (k = 3; k < n; k += 4)
    A[k] = A[k] + 1;
  out[2] = k;
  for (l = 5; l < m; l++)
    A[l] = A[l] * 2;
  out[3] = l;
  if (m > 2)
    for (e = 0; e < m; e++)
      A[e] = A[e] - 1;
  out[4] = i + j + k + l;
  for (l = 0; l != m; l++)
    A[l] = A[l] + 0.5;
  for (k = 0; k < 5 || k > n; k++)
    A[k + 1] = A[k + 1] * 0.5;
  out[8] = l * 100 + k;
#pragma endscop
  out[5] = e;
  out[6] = i * 1000 + j;
  out[7] = k - l;
}

int main(void)
{
  static DATA_TYPE A[N + 2], B[N][N], out[16];
  int i, j;

  for (i = 0; i < N + 2; i++)
    A[i] = (DATA_TYPE)(i % 17) / 17;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      B[i][j] = (DATA_TYPE)((7 * i + 3 * j) % 13) / 13;
  for (i = 0; i < 16; i++)
    out[i] = -1;

  kernel_iterator_exit(N, 3, A, B, out);

  print_array("A", A, N + 2);
  print_array("B", B[0], (long)N * N);
  print_array("out", out, 16);
  return 0;
}
