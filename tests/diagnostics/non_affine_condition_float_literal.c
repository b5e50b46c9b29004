// The data-dependent operand A[i] is what makes this condition non-affine;
// the diagnostic must name it, not the floating-point constant 0.0.
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    if (A[i] > 0.0) // expected-error {{condition is not affine: A[i]}}
      A[i] = 0.0;
#pragma endscop
}
