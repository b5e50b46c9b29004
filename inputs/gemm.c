/* gemm.c -- general matrix multiply, C = alpha*A*B + beta*C
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
# ifndef NI
#  define NI 20
# endif
# ifndef NJ
#  define NJ 25
# endif
# ifndef NK
#  define NK 30
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 60
# endif
# ifndef NJ
#  define NJ 70
# endif
# ifndef NK
#  define NK 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 200
# endif
# ifndef NJ
#  define NJ 220
# endif
# ifndef NK
#  define NK 240
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 1000
# endif
# ifndef NJ
#  define NJ 1100
# endif
# ifndef NK
#  define NK 1200
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

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE C[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE C[NI][NJ], A[NI][NK], B[NK][NJ];
  DATA_TYPE alpha = 1.5, beta = 1.2;
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] = (DATA_TYPE)((i * j + 1) % NI) / NI;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (DATA_TYPE)(i * (j + 1) % NK) / NK;
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (DATA_TYPE)(i * (j + 2) % NJ) / NJ;

  kernel_gemm(NI, NJ, NK, alpha, beta, C, A, B);

  print_array("C", &C[0][0], (long)NI * NJ);
  return 0;
}
