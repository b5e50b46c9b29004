void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i == 3)
      continue; // expected-error {{is not supported inside a scop}}
    A[i] = 1.0;
  }
#pragma endscop
}
