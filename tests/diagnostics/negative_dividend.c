// C's % truncates toward zero, isl's mod rounds down: they differ for i < 0.
// (In a subscript it is a non-affine subscript instead, printed as written;
// in an if, a condition on data, computed as C does.)
void kernel(int n, double A[100]) {
  int i, j;
#pragma scop
  for (i = -10; i < n; i++)
    for (j = 0; j < i % 5; j++) // expected-error {{the dividend of 'i % 5' may be negative, where C's integer division and remainder round toward zero; rewrite it with a non-negative dividend}}
      A[i + 10] = 0.0;
#pragma endscop
}
