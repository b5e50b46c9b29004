double f(double x);
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = f(A[i]); // expected-error {{call to unknown function 'f' is not supported in a scop; only math functions such as sqrt, exp, pow and fabs, and pure functions of numbers defined in the file, may be called}}
#pragma endscop
}
