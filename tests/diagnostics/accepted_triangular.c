// expected-no-diagnostics
// A triangular nest: the inner bound depends on the outer loop variable.
void kernel(int n, double A[100][100], double x[100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    x[i] = 0.0;
    for (j = 0; j <= i; j++)
      x[i] = x[i] + A[i][j] * A[j][i];
  }
#pragma endscop
}
