// C's % truncates toward zero, isl's mod rounds down: they differ for i < 0.
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = -10; i < n; i++)
    A[i % 5 + 10] = 0.0; // expected-error {{the dividend of 'i % 5' may be negative, where C's integer division and remainder round toward zero; rewrite it with a non-negative dividend}}
#pragma endscop
}
