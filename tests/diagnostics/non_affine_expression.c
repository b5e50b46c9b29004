// A lower loop bound that is a product of two parameters.
void kernel(int n, int m, double A[1000]) {
  int i;
#pragma scop
  for (i = n * m; i < 1000; i++) // expected-error {{expression is not affine: n * m; loop bounds and subscripts must be sums of loop variables and parameters times integer constants}}
    A[i] = 0.0;
#pragma endscop
}
