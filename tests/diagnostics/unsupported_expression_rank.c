void kernel(int n, double A[100][100], int B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = A[i] != 0; // expected-error {{an access to 'A' with 1 subscripts (declared with 2) is not supported in a scop statement}}
#pragma endscop
}
