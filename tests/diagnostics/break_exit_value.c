void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i > 10) // expected-error {{the value of loop variable 'i' after a loop left by 'break' is not supported}}
      break;
    A[i] = 1.0;
  }
  A[i] = 2.0;
#pragma endscop
}
