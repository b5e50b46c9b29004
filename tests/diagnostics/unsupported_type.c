void kernel(int n, long double A[100]) { // expected-error {{type 'long double' is not supported; use}}
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
}
