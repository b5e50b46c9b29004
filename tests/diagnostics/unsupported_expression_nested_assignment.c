void kernel(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = (B[i] = 1.0); // expected-error {{is not supported in a scop statement}}
#pragma endscop
}
