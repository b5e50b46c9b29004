void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i * i < n; i++) // expected-error {{condition is not affine: i * i}}
    A[i] = 0.0;
#pragma endscop
}
