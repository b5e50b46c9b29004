/* device_functions.c -- helper functions of several statements, as C
 * programs write them: Newton's square root with a loop and locals, a
 * piecewise function with an if chain that calls it, and a float function
 * on a recurrence. Each is pure and of numbers, so polycuda calls it as a
 * function on every target, printing it with the kernels (CUDA
 * `__host__ __device__`, OpenCL); a helper whose body is one `return` is
 * inlined instead (helper_functions.c). The report names both.
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
#  define N 32
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 160
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 800
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 3000
# endif
#endif
#define NEWTON_STEPS 8

static void print_array(const char *name, const double *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

/* Newton's square root with a fixed number of steps. */
static double newton_sqrt(double x)
{
  double y = x > 1.0 ? x : 1.0;
  for (int k = 0; k < NEWTON_STEPS; k++)
    y = 0.5 * (y + x / y);
  return y;
}

/* A piecewise function of x chosen by mode, calling newton_sqrt. */
static inline double piecewise(double x, int mode)
{
  double r;
  int m = mode % 3;
  if (m == 0)
    r = x * x;
  else if (m == 1)
    r = fabs(x) + 1.0;
  else {
    r = 0.0;
    for (int k = 1; k <= 3; k++)
      r += newton_sqrt(x * k + 1.0) / k;
  }
  return r;
}

static float smoothf(float a, float b)
{
  float t = a - b;
  if (t < 0.0f)
    t = -t;
  return t / (1.0f + t);
}

static void kernel_device_functions(int n, double A[N][N], double B[N][N],
                                    float F[N])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = newton_sqrt(A[i][j]) + piecewise(A[j][i], i + j);
  for (int i = 1; i < n; i++)
    F[i] = smoothf(F[i - 1] * 0.5f, F[i]) + (float)i;
#pragma endscop
}

int main(void)
{
  static double A[N][N], B[N][N];
  static float F[N];
  static double Fd[N];
  int i, j;

  for (i = 0; i < N; i++) {
    F[i] = (float)(i % 5) / 5;
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 19) / 3.0;
  }
  kernel_device_functions(N - 2, A, B, F);
  for (i = 0; i < N; i++)
    Fd[i] = F[i];
  print_array("B", &B[0][0], (long)N * N);
  print_array("F", Fd, N);
  return 0;
}
