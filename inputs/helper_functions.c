/* helper_functions.c -- calls of functions defined in the file whose body
 * is one `return` of an expression, inlined into the statements: a square,
 * a clamp of three arguments, a weight that reads a file-scope table and
 * calls another helper, a ReLU over a math function, and helpers whose
 * parameter or result type converts the value as the call would (an int
 * result truncates the double it returns; a float parameter rounds its
 * double argument; an unsigned char result wraps).  A matrix of clamped
 * differences (parallel), a row of integer halves, and a scan whose
 * helper reads the previous element (sequential).
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

static double W[4] = {0.5, 0.25, 0.125, 0.0625};

static inline double sq(double x) { return x * x; }
static inline double clampd(double v, double lo, double hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}
static double weight(int k) { return W[k % 4] * sq(k * 0.01 + 0.5); }
static inline double relu(double x) { return fmax(x, 0.0); }
static inline int half(double x) { return x / 2; }
static inline float rounded(float x) { return x * 3.0f; }
static inline unsigned char low_byte(int v) { return v * 37; }
static double smooth(double prev, double cur) { return 0.75 * cur + 0.25 * prev; }

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

static void kernel_helpers(int n, double A[N][N], double B[N][N], int C[N],
                           double D[N], double E[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = clampd(sq(A[i][j]) - weight(j), -1.0, 1.0) +
                relu(A[j][i] - 0.3);
  for (int i = 0; i < n; i++) {
    C[i] = half(A[i][i] * 10.0) + half(sq(B[i][0]) * 7) + low_byte(i + 5);
    D[i] = rounded(A[i][n - 1 - i] + 1e-9);
  }
  for (int i = 1; i < n; i++)
    E[i] = smooth(E[i - 1], D[i] + sq(B[i][i]));
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N], D[N], E[N];
  static int C[N];
  int i, j;

  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 13) / 13;
    C[i] = 0;
    D[i] = 0;
    E[i] = (double)(i % 5) / 5;
  }

  kernel_helpers(N, A, B, C, D, E);

  print_array("B", &B[0][0], (long)N * N);
  print_ints("C", C, N);
  print_array("D", D, N);
  print_array("E", E, N);
  return 0;
}
