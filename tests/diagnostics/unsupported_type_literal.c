void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = A[i] * 0.1L; // expected-error {{type 'long double' is not supported}}
#pragma endscop
}
