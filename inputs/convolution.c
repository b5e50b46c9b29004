/* convolution.c -- a 2-D convolution with a 5x5 weight table and a bias,
 * B[i][j] = bias[0] * sum_{a,b} W[a][b] * A[i+a-2][j+b-2] + bias[1] on the
 * interior (W and bias: small, read-only, the same element for every thread:
 * constant memory; the a and b loops unrolled)
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
#  define N 32
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 128
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 512
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2048
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

static void kernel_convolution(int n, DATA_TYPE B[N][N], DATA_TYPE A[N][N],
                               DATA_TYPE W[5][5], DATA_TYPE bias[2])
{
  DATA_TYPE s;
#pragma scop
  for (int i = 2; i < n - 2; i++)
    for (int j = 2; j < n - 2; j++) {
      s = 0;
      for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
          s += W[a][b] * A[i + a - 2][j + b - 2];
      B[i][j] = bias[0] * s + bias[1];
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N][N], B[N][N], W[5][5], bias[2];

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
      B[i][j] = -1;
    }
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 5; b++)
      W[a][b] = 1 / (DATA_TYPE)(1 + a + b);
  bias[0] = 0.5;
  bias[1] = 0.25;

  kernel_convolution(N, B, A, W, bias);

  print_array("B", &B[0][0], (long)N * N);
  return 0;
}
