/* bool_flags.c -- `bool` (stdbool.h) as C programs use it: a mask array
 * computed from data and used to select, a bool parameter, bool locals,
 * casts to bool of doubles and integers (any non-zero value is true),
 * compound assignments and ++/-- on bool elements (C converts the result
 * back to 0 or 1), and a count of the true elements.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
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
#  define N 4000
# endif
#endif

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

static void print_flags(const char *name, const bool *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%d%c", (int)a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

static void kernel_flags(int n, bool strict, double A[N][N], double B[N][N],
                         bool M[N][N], bool T[N][N], int count[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      M[i][j] = A[i][j] > 0.5 && (i + j) % 3 != 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      bool keep = M[i][j] || (strict && A[i][j] > 0.25);
      B[i][j] = keep ? A[i][j] * 2.0 : -A[i][j];
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      T[i][j] = (bool)(A[i][j] - 0.5);
      T[i][j] += (i * j) % 4;
      T[i][j] &= (bool)(j % 2);
      if (i % 3 == 0)
        T[i][j]++;
      if (i % 5 == 0)
        T[i][j]--;
      T[i][j] ^= M[i][j];
    }
  for (int i = 0; i < n; i++) {
    count[i] = 0;
    for (int j = 0; j < n; j++)
      count[i] += M[i][j] + (int)T[i][j];
  }
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N];
  static bool M[N][N], T[N][N];
  static int count[N];
  int i, j;

  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 11) % 17) / 16;

  kernel_flags(N, true, A, B, M, T, count);

  print_array("B", &B[0][0], (long)N * N);
  print_flags("M", &M[0][0], (long)N * N);
  print_flags("T", &T[0][0], (long)N * N);
  printf("== count\n");
  for (i = 0; i < N; i++)
    printf("%d%c", count[i], (i % 8 == 7 || i == N - 1) ? '\n' : ' ');
  return 0;
}
