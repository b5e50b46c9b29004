double f(double x);
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = f(A[i]); // expected-error {{call to unknown function 'f' is not supported in a scop; only math functions such as sqrt, exp, pow and fabs, and functions defined in the file whose body is one 'return' of an expression, may be called}}
#pragma endscop
}
