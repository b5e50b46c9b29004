/* doitgen.c -- multi-resolution analysis kernel: A[r][q][:] = A[r][q][:] * C4
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
# ifndef NQ
#  define NQ 8
# endif
# ifndef NR
#  define NR 10
# endif
# ifndef NP
#  define NP 12
# endif
#elif defined(SMALL_DATASET)
# ifndef NQ
#  define NQ 20
# endif
# ifndef NR
#  define NR 25
# endif
# ifndef NP
#  define NP 30
# endif
#elif defined(MEDIUM_DATASET)
# ifndef NQ
#  define NQ 40
# endif
# ifndef NR
#  define NR 50
# endif
# ifndef NP
#  define NP 60
# endif
#elif defined(LARGE_DATASET)
# ifndef NQ
#  define NQ 140
# endif
# ifndef NR
#  define NR 150
# endif
# ifndef NP
#  define NP 160
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

static void kernel_doitgen(int nr, int nq, int np, DATA_TYPE A[NR][NQ][NP],
                           DATA_TYPE C4[NP][NP], DATA_TYPE sum[NP])
{
#pragma scop
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE A[NR][NQ][NP], C4[NP][NP], sum[NP];

  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NQ; j++)
      for (int k = 0; k < NP; k++)
        A[i][j][k] = (DATA_TYPE)((i * j + k) % NP) / NP;
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NP; j++)
      C4[i][j] = (DATA_TYPE)(i * j % NP) / NP;

  kernel_doitgen(NR, NQ, NP, A, C4, sum);

  print_array("A", &A[0][0][0], (long)NR * NQ * NP);
  print_array("sum", sum, NP);
  return 0;
}
