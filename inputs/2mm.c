/* 2mm.c -- two matrix multiplications: tmp = alpha*A*B, D = beta*D + tmp*C (malloc'd arrays)
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
#  define NI 16
# endif
# ifndef NJ
#  define NJ 18
# endif
# ifndef NK
#  define NK 22
# endif
# ifndef NL
#  define NL 24
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 40
# endif
# ifndef NJ
#  define NJ 50
# endif
# ifndef NK
#  define NK 70
# endif
# ifndef NL
#  define NL 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 180
# endif
# ifndef NJ
#  define NJ 190
# endif
# ifndef NK
#  define NK 210
# endif
# ifndef NL
#  define NL 220
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 800
# endif
# ifndef NJ
#  define NJ 900
# endif
# ifndef NK
#  define NK 1100
# endif
# ifndef NL
#  define NL 1200
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

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE tmp[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ],
                       DATA_TYPE C[NJ][NL], DATA_TYPE D[NI][NL])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

int main(void)
{
  DATA_TYPE (*tmp)[NJ] = (DATA_TYPE (*)[NJ])malloc(sizeof(DATA_TYPE) * NI * NJ);
  DATA_TYPE (*A)[NK] = (DATA_TYPE (*)[NK])malloc(sizeof(DATA_TYPE) * NI * NK);
  DATA_TYPE (*B)[NJ] = (DATA_TYPE (*)[NJ])malloc(sizeof(DATA_TYPE) * NK * NJ);
  DATA_TYPE (*C)[NL] = (DATA_TYPE (*)[NL])malloc(sizeof(DATA_TYPE) * NJ * NL);
  DATA_TYPE (*D)[NL] = (DATA_TYPE (*)[NL])malloc(sizeof(DATA_TYPE) * NI * NL);
  DATA_TYPE alpha = 1.5, beta = 1.2;
  int i, j;

  if (!tmp || !A || !B || !C || !D)
    return 1;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      tmp[i][j] = 0;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (DATA_TYPE)((i * j + 1) % NI) / NI;
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (DATA_TYPE)(i * (j + 1) % NJ) / NJ;
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NL; j++)
      C[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % NL) / NL;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (DATA_TYPE)(i * (j + 2) % NK) / NK;

  kernel_2mm(NI, NJ, NK, NL, alpha, beta, tmp, A, B, C, D);

  print_array("tmp", &tmp[0][0], (long)NI * NJ);
  print_array("D", &D[0][0], (long)NI * NL);
  free(tmp); free(A); free(B); free(C); free(D);
  return 0;
}
