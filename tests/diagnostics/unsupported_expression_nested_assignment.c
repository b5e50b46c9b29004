void kernel(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 2.0 * (B[i] = 1.0); // expected-error {{an assignment inside an expression is not supported in a scop statement}}
#pragma endscop
}
