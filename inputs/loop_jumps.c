/* loop_jumps.c -- `continue` and `break` as C programs use them: skipping
 * the diagonal (an affine continue: the loops stay parallel), skipping on
 * data with statements before and after, a continue in a nested block and
 * in an else branch, a row cut at the diagonal by an affine break in a
 * decreasing loop, a break after an inner loop, several breaks and a
 * continue before a break, a linear search (a break on data, which keeps
 * the row loop parallel and runs each row in order) and a loop that never
 * runs.
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

/* One scop per loop nest: each is translated on its own. */
static void kernel_jumps(int n, int m, double A[N][N], double B[N][N],
                         double s[N], int found[N], int limit[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      A[i][j] = 0.5 * A[i][j] + 0.25 * B[j][i];
    }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      B[i][j] += 0.125;
      if (A[i][j] < 0.3) {
        s[i] += 1.0;
        continue;
      }
      B[i][j] *= A[i][j];
      s[i] += 0.01 * B[i][j];
    }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++) {
    {
      if (i % 4 == 1)
        continue;
      s[i] *= 0.5;
    }
    if (s[i] > 2.0)
      s[i] -= 1.0;
    else
      continue;
    s[i] += 0.75;
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = n - 1; j >= 0; j--) {
      if (j < i)
        break;
      A[i][j] += 1.0;
    }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++)
      B[i][k] += A[k][i];
    if (i > m)
      break;
    B[i][i] = 0.0;
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j == i + 1)
        continue;
      if (j > 2 * i + 3)
        break;
      A[i][j] -= 0.5;
      if (j >= m - i)
        break;
    }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++) {
    found[i] = -1;
    for (int j = 0; j < n; j++) {
      if (j > limit[i])
        break;
      if (A[i][j] > 0.9) {
        found[i] = j;
        B[i][j] = -1.0;
        break;
      }
      B[i][j] += 0.5;
    }
  }
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = m; j < m - 2; j++) {
      if (A[i][j] > 0.0)
        break;
      A[i][j] = 9.0;
    }
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N], s[N];
  static int found[N], limit[N];
  int i, j;

  for (i = 0; i < N; i++) {
    s[i] = (i % 5) * 0.75;
    limit[i] = (i * 13) % N;
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * 7 + j * 11) % 17) / 17;
      B[i][j] = (double)((i * 3 + j * 5) % 13) / 13;
    }
  }

  kernel_jumps(N, N / 2, A, B, s, found, limit);

  print_array("A", &A[0][0], (long)N * N);
  print_array("B", &B[0][0], (long)N * N);
  print_array("s", s, N);
  print_ints("found", found, N);
  return 0;
}
