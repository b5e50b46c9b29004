// expected-no-diagnostics
// A restrict pointer parameter is an array whose first extent is unknown.
void kernel(int n, const double *restrict x, double *restrict y,
            double (*restrict A)[100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * 2.0;
    for (int j = 0; j < n; j++)
      A[i][j] += y[i] * x[j];
  }
#pragma endscop
}
