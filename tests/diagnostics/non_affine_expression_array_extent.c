// The extent of a variable-length array must be affine too.
void kernel(int n, double A[n][n * n]) { // expected-error {{expression is not affine: n * n}}
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i][0] = 0.0;
#pragma endscop
}
