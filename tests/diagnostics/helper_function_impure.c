// Functions called in a scop must be pure, of numbers: no pointer
// parameters, no calls of functions without a body (I/O), no structs.
#include <stdio.h>
static double scaled(double x, const double *w) { // expected-error {{a function called in a scop must be pure, of numbers: 'scaled' takes 'w', which is not a number}}
  double y = x * 2.0;
  return y * w[0];
}
static double logged(double x) {
  double y = x + 1.0;
  printf("%f\n", y); // expected-error {{a function called in a scop must be pure, of numbers: 'logged' calls printf, which is no math function of C nor a function of the file}}
  return y;
}
void kernel(int n, double A[100], double W[1]) {
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = scaled(A[i], W);
#pragma endscop
#pragma scop
  for (int i = 0; i < n; i++)
    A[i] = logged(A[i]);
#pragma endscop
}
