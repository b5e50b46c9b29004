/* 3mm.c -- three matrix multiplications: E = A*B, F = C*D, G = E*F
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
#  define NK 20
# endif
# ifndef NL
#  define NL 22
# endif
# ifndef NM
#  define NM 24
# endif
#elif defined(SMALL_DATASET)
# ifndef NI
#  define NI 40
# endif
# ifndef NJ
#  define NJ 50
# endif
# ifndef NK
#  define NK 60
# endif
# ifndef NL
#  define NL 70
# endif
# ifndef NM
#  define NM 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NI
#  define NI 180
# endif
# ifndef NJ
#  define NJ 190
# endif
# ifndef NK
#  define NK 200
# endif
# ifndef NL
#  define NL 210
# endif
# ifndef NM
#  define NM 220
# endif
#elif defined(LARGE_DATASET)
# ifndef NI
#  define NI 800
# endif
# ifndef NJ
#  define NJ 900
# endif
# ifndef NK
#  define NK 1000
# endif
# ifndef NL
#  define NL 1100
# endif
# ifndef NM
#  define NM 1200
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

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
                       DATA_TYPE E[NI][NJ], DATA_TYPE A[NI][NK], DATA_TYPE B[NK][NJ],
                       DATA_TYPE F[NJ][NL], DATA_TYPE C[NJ][NM], DATA_TYPE D[NM][NL],
                       DATA_TYPE G[NI][NL])
{
  int i, j, k;

#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      E[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        E[i][j] += A[i][k] * B[k][j];
    }
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++) {
      F[i][j] = 0.0;
      for (k = 0; k < nm; ++k)
        F[i][j] += C[i][k] * D[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      G[i][j] = 0.0;
      for (k = 0; k < nj; ++k)
        G[i][j] += E[i][k] * F[k][j];
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE E[NI][NJ], A[NI][NK], B[NK][NJ], F[NJ][NL], C[NJ][NM], D[NM][NL], G[NI][NL];
  int i, j;

  for (i = 0; i < NI; i++)
    for (j = 0; j < NK; j++)
      A[i][j] = (DATA_TYPE)((i * j + 1) % NI) / (5 * NI);
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++)
      B[i][j] = (DATA_TYPE)((i * (j + 1) + 2) % NJ) / (5 * NJ);
  for (i = 0; i < NJ; i++)
    for (j = 0; j < NM; j++)
      C[i][j] = (DATA_TYPE)(i * (j + 3) % NL) / (5 * NL);
  for (i = 0; i < NM; i++)
    for (j = 0; j < NL; j++)
      D[i][j] = (DATA_TYPE)((i * (j + 2) + 2) % NK) / (5 * NK);

  kernel_3mm(NI, NJ, NK, NL, NM, E, A, B, F, C, D, G);

  print_array("E", &E[0][0], (long)NI * NJ);
  print_array("F", &F[0][0], (long)NJ * NL);
  print_array("G", &G[0][0], (long)NI * NL);
  return 0;
}
