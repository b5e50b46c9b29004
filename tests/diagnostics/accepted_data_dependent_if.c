// expected-no-diagnostics
// Conditions on data: the condition is stored before the branches run, and
// their statements run under it (a ReLU, an if/else, nested ifs, && || !).
void kernel(int n, double A[100], double B[100], int C[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    if (A[i] > 0)
      A[i] = 0.0;
  for (i = 0; i < n; i++) {
    if (A[i] < B[i] && !(C[i] % 2))
      B[i] = A[i];
    else if (C[i] || B[i] > 1.0)
      B[i] -= 1.0;
  }
#pragma endscop
}
