// A while loop inside a scop is refused: only for loops are modelled.
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    while (A[i] > 1.0) // expected-error {{is not supported inside a scop; use for loops, if statements and assignments}}
      A[i] = A[i] / 2.0;
  }
#pragma endscop
}
