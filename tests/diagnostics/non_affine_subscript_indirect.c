void kernel(int n, double A[100], int idx[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[idx[i]] = 1.0; // expected-error {{array subscript is not affine: idx[i]}}
#pragma endscop
}
