void kernel(int n, double A[100]) {
  int i, k;
#pragma scop
  for (i = 0; i < n; i++) {
    k = i + 1;
    A[k] = 0.0; // expected-error {{integer variable 'k' is written in the scop}}
  }
#pragma endscop
}
