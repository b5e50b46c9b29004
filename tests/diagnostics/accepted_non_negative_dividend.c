// expected-no-diagnostics
// Dividends that are non-negative on the iteration domain are accepted, also
// when only the surrounding if makes them so.
void kernel(int n, int m, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i / 4] = A[i % 4] + 1.0;
  for (i = -10; i < n; i++)
    if (i >= 0)
      B[i % 7] = 0.0;
#pragma endscop
}
