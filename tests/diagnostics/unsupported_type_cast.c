void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = (long double)A[i]; // expected-error {{type 'long double' is not supported}}
#pragma endscop
}
