/* host_scalars.c -- scalar code before the loops, kept on the host: a
 * coefficient from a parameter, a choice between two (if/else), an int
 * remainder, a square; then loops that read them, and a scalar computed
 * from an array (which stays on the device).
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

static void kernel_host_scalars(int n, DATA_TYPE alpha, DATA_TYPE A[N],
                                DATA_TYPE B[N], DATA_TYPE out[4])
{
  DATA_TYPE s, t, u, v;
  int flag;
  int i;

#pragma scop
  s = alpha * 2;
  if (n > 10)
    t = s + 1;
  else
    t = s - 1;
  flag = n % 3;
  u = t * t / 8;
  for (i = 0; i < n; i++)
    A[i] = A[i] * s + t + flag;
  v = A[0] + u;
  for (i = 1; i < n; i++)
    B[i] = B[i - 1] / 2 + A[i] * u + v;
  out[0] = s;
  out[1] = t;
  out[2] = u;
  out[3] = v;
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[N], B[N], out[4];
  DATA_TYPE alpha = 0.25;
  int i;

  for (i = 0; i < N; i++) {
    A[i] = (DATA_TYPE)(i % 17) / 17;
    B[i] = (DATA_TYPE)1 / (i % 13 + 1);
  }

  kernel_host_scalars(N, alpha, A, B, out);

  print_array("A", A, N);
  print_array("B", B, N);
  print_array("out", out, 4);
  return 0;
}
