// expected-no-diagnostics
// min/max written as ternaries in bounds, a tiling-style nest, strides, and
// affine conditions with floor division and modulo.
#include <math.h>
void kernel(int n, int m, double A[200][200]) {
  int i, j, ii;
#pragma scop
  for (ii = 0; ii < n; ii += 32)
    for (i = ii; i < (ii + 32 < n ? ii + 32 : n); i++)
      for (j = (i - 2 > 0 ? i - 2 : 0); j <= (m < i + 2 ? m : i + 2); j++)
        if (i % 2 == 0 && j / 3 >= 1)
          A[i][j] = A[i][j] + sqrt(A[j][i]) * fabs(A[i][j]);
  for (i = n - 1; i >= 0; i -= 2)
    A[i][0] = (i > 0 ? A[i - 1][0] : 0.0);
#pragma endscop
}
