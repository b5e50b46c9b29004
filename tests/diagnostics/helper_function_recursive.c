static double down(double x) { return x <= 1.0 ? x : down(x / 2); }
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = down(A[i]); // expected-error@1 {{a recursive call to 'down' is not supported in a scop statement}}
#pragma endscop
}
