void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = 1.0;
    break; // expected-error {{'break' is supported only as the last statement of one branch of an 'if'}}
  }
#pragma endscop
}
