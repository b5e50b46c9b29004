void kernel(int n, double A[100], double (*g)(double)) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = g(A[i]); // expected-error {{call to unknown function 'g' is not supported in a scop}}
#pragma endscop
}
