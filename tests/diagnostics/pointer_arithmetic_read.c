// An element read through pointer arithmetic.
void kernel(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = *(B + i + 1); // expected-error {{pointer arithmetic 'B + i + 1' is not supported in a scop}}
#pragma endscop
}
