/* smooth.c -- the scop of the polycuda CMake example (see smooth.h)
 *
 * Built twice by CMakeLists.txt: as it is (the sequential reference) and
 * translated by polycuda_add_executable().
 */
#include "smooth.h"

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

void kernel_smooth(int n, int tsteps, double A[N][N], double B[N][N],
                   double w[N], double r[N])
{
#pragma scop
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] +
                         A[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
  for (int i = 0; i < n; i++) {
    r[i] = 0.0;
    for (int j = 0; j < n; j++)
      r[i] += A[i][j] * w[j];
  }
#pragma endscop
}
