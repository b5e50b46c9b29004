// A call used as a statement is not an assignment.
void update(double *x);
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    update(&A[i]); // expected-error {{an expression statement that is not an assignment is not supported inside a scop}}
#pragma endscop
}
