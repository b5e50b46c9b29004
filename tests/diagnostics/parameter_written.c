void kernel(int n, double A[100]) {
  int i;
#pragma scop
  n = 10;
  for (i = 0; i < n; i++) // expected-error {{integer variable 'n' is written in the scop and used in a loop bound, a condition or an array size}}
    A[i] = 0.0;
#pragma endscop
}
