void kernel(int n, int m, double A[10000]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[n * m + i] = 1.0; // expected-error {{array subscript is not affine: n * m}}
#pragma endscop
}
