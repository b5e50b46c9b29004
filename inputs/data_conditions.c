/* data_conditions.c -- if statements whose conditions read data: a
 * thresholded matrix (if/else, parallel), a running maximum that counts
 * its updates (the condition reads what its branch writes: the condition
 * is evaluated once, before the branch), a mask with && || ! and a nested
 * condition that an outer one protects (x[i] != 0 before dividing by it),
 * and a diagonal update whose branch changes the value its condition read,
 * with a nested if on the new value.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
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

static void print_ints(const char *name, const int *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%d%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

static void kernel_conditions(int n, double A[N][N], double B[N][N],
                              double x[N], double m[N], int cnt[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (A[i][j] > 0.5)
        B[i][j] = A[i][j] - 0.5;
      else
        B[i][j] = 0.0;
  for (int i = 0; i < n; i++) {
    m[i] = A[i][0];
    cnt[i] = 0;
    for (int j = 1; j < n; j++)
      if (A[i][j] > m[i] && j % 3 != 0) {
        m[i] = A[i][j];
        cnt[i] += 1;
      }
  }
  for (int i = 0; i < n; i++)
    if (x[i])
      if (1.0 / x[i] > 1.5 || !(A[i][i] < 0.3))
        x[i] = x[i] > 0.5 ? 0.0 : x[i] * 2.0;
  for (int i = 0; i < n; i++)
    if (A[i][i] < 0.5) {
      A[i][i] = 1.0 - A[i][i];
      if (A[i][i] < 0.8)
        A[i][i] += 0.1;
    }
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N], x[N], m[N];
  static int cnt[N];
  int i, j;

  for (i = 0; i < N; i++) {
    x[i] = (i % 4) * 0.25;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 11) % 17) / 17;
  }

  kernel_conditions(N, A, B, x, m, cnt);

  print_array("A", &A[0][0], (long)N * N);
  print_array("B", &B[0][0], (long)N * N);
  print_array("x", x, N);
  print_array("m", m, N);
  print_ints("cnt", cnt, N);
  return 0;
}
