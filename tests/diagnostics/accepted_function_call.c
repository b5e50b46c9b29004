// expected-no-diagnostics
// Pure functions of numbers with several statements (locals, loops, ifs,
// calls of math functions and of each other) are called as functions.
#include <math.h>
static double newton(double x) {
  double y = x > 1.0 ? x : 1.0;
  for (int k = 0; k < 6; k++)
    y = 0.5 * (y + x / y);
  return y;
}
static double piece(double x, int mode) {
  double r = 0.0;
  if (mode % 2)
    r = fabs(x);
  else
    r = newton(x * x + 1.0);
  return r;
}
void kernel(int n, double A[100], double B[100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    B[i] = piece(A[i], i) + newton(A[i]);
#pragma endscop
}
