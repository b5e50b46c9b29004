// expected-no-diagnostics
// Variable-length array parameters whose extents are affine in parameters.
void kernel(int n, int m, double A[n][m + 1], double B[n][m + 1]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j <= m; j++)
      B[i][j] = 2.0 * A[i][j];
#pragma endscop
}
