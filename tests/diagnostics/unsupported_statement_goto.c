void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = 0.0;
    goto done; // expected-error {{is not supported inside a scop}}
  }
#pragma endscop
done:
  return;
}
