void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i > 2) {
      A[i] = 1.0;
      if (i == 3)
        continue; // expected-error {{'continue' is supported only as the last statement of one branch of an 'if' placed directly in a loop body}}
    }
    A[i] += 1.0;
  }
#pragma endscop
}
