void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = 1.0;
    if (i > n - 2)
      return; // expected-error {{is not supported inside a scop}}
  }
#pragma endscop
}
