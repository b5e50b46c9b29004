void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0;; i++) // expected-error {{loop condition must compare the loop variable with an affine bound, e.g. 'i < n'}}
    A[i] = 0.0;
#pragma endscop
}
