// expected-no-diagnostics
// The inner extent m is not otherwise mentioned inside the scop.
void kernel(int n, int m, double A[n][m]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i][0] = 1.0;
#pragma endscop
}
