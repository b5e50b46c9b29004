// A function of several statements is called as a function on every
// target (printed with the kernels) when it is pure, of numbers; one that
// writes a global is not.
double total;
static double twice(double x) {
  double y = x + x;
  total += y; // expected-error {{a function called in a scop must be pure, of numbers: 'twice' uses 'total', declared outside it}}
  return y;
}
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = twice(A[i]);
#pragma endscop
}
