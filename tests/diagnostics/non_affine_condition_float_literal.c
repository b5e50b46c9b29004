// The data-dependent operand A[i] is what makes this loop bound non-affine;
// the diagnostic must name it, not the floating-point constant 0.5.
void kernel(int n, double A[100], double B[100][100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < A[i] * 0.5; j++) // expected-error {{condition is not affine: A[i]}}
      B[i][j] = 0.0;
#pragma endscop
}
