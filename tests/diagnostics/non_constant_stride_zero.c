void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i += 0) // expected-error {{loop increment must be a constant step}}
    A[i] = 0.0;
#pragma endscop
}
