/* main.c -- driver of the polycuda CMake example
 *
 * Fills the grid and the weights, runs kernel_smooth once and prints the
 * result in the format of tests/e2e/compare_outputs.py: a section per array,
 * then the checksum (the sum of r).
 */
#include <stdio.h>

#include "smooth.h"

static void print_array(const char *name, const double *a, long count)
{
  printf("== %s\n", name);
  for (long i = 0; i < count; i++)
    printf("%.10e%c", a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

int main(void)
{
  static double A[N][N], B[N][N], w[N], r[N];

  for (int i = 0; i < N; i++) {
    w[i] = 1.0 + (double)(i % 5) / 4;
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((3 * i + 7 * j) % N) / N;
      B[i][j] = 0.0;
    }
  }

  kernel_smooth(N, TSTEPS, A, B, w, r);

  double checksum = 0.0;
  for (int i = 0; i < N; i++)
    checksum += r[i];
  print_array("A", &A[0][0], (long)N * N);
  print_array("r", r, N);
  print_array("checksum", &checksum, 1);
  return 0;
}
