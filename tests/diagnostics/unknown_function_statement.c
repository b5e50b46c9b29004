// A call used as a statement names the function it calls.
void update(double *x);
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    update(&A[i]); // expected-error {{call to unknown function 'update' is not supported in a scop}}
#pragma endscop
}
