void kernel(int n, double A[10000]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i * i] = 1.0; // expected-error {{array subscript is not affine: i * i}}
#pragma endscop
}
