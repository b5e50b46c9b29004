/* nussinov.c -- Nussinov RNA folding: maximum number of base pairs (dynamic programming), int by default
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default int).  Prints every output array.
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
#  define N 60
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 180
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 500
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2500
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE int
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

/* bases are 0..3 (A, C, G, U); A-U (0+3) and C-G (1+2) pair */
typedef char base;
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

static void kernel_nussinov(int n, base seq[N], DATA_TYPE table[N][N])
{
  int i, j, k;

#pragma scop
  for (i = n - 1; i >= 0; i--) {
    for (j = i + 1; j < n; j++) {
      if (j - 1 >= 0)
        table[i][j] = max_score(table[i][j], table[i][j - 1]);
      if (i + 1 < n)
        table[i][j] = max_score(table[i][j], table[i + 1][j]);
      if (j - 1 >= 0 && i + 1 < n) {
        /* don't allow adjacent elements to bond */
        if (i < j - 1)
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
        else
          table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
      }
      for (k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
#pragma endscop
}

int main(void)
{
  static base seq[N];
  static DATA_TYPE table[N][N];
  int i, j;

  for (i = 0; i < N; i++)
    seq[i] = (base)((i * 7 + i / 3 + 1) % 4);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      table[i][j] = 0;

  kernel_nussinov(N, seq, table);

  print_array("table", &table[0][0], (long)N * N);
  return 0;
}
