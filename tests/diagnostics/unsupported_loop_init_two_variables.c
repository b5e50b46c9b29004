void kernel(int n, double A[100]) {
#pragma scop
  for (int i = 0, j = 0; i < n; i++) // expected-error {{loop initialization must assign the loop variable}}
    A[i] = 0.0;
#pragma endscop
}
