// Expressions that stay refused are named in C's terms, not after Clang's
// AST nodes.
void vla(int n, int m, double A[100]) {
  int i;
  double v[m];
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = sizeof(v); // expected-error {{'sizeof' of a variable-length array is not supported in a scop statement}}
#pragma endscop
}

void gnu_conditional(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = A[i] ?: 1.0; // expected-error {{the GNU operator '?:' without a middle operand is not supported in a scop statement}}
#pragma endscop
}

void statement_expression(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = ({ 2.0; }); // expected-error {{a statement expression is not supported in a scop statement}}
#pragma endscop
}
