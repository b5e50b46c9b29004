// expected-no-diagnostics
// Flat subscripts with one row length per array: A[i * m + j] is read as
// A[i][j], x[(i * n + j) * m + k] as x[i][j][k]; `double a[]` too.
void kernel(int n, int m, double *restrict A, const double *restrict x,
            double a[]) {
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++) {
      A[i * m + j] = A[(i - 1) * m + j] + a[j] + A[i * m - 1] + A[i * m + m - 1];
      for (int k = 0; k < m; k++)
        a[i * m + k] += x[(i * n + j) * m + k];
    }
#pragma endscop
}
