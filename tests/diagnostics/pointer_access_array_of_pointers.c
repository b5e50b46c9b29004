void kernel(int n, double *A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i][0] = 0.0; // expected-error {{'A' is accessed through a pointer}}
#pragma endscop
}
