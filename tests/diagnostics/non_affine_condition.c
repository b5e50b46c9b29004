// A product of parameters in an upper bound.
void kernel(int n, int m, double A[1000]) {
  int i;
#pragma scop
  for (i = 0; i < n * m; i++) // expected-error {{condition is not affine: n * m; compare affine expressions of loop variables and parameters}}
    A[i] = 0.0;
#pragma endscop
}
