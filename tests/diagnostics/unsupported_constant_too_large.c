void kernel(int n, double A[100]) {
  int i;
#pragma scop
  // 2^64 - 1 as an unsigned long: no 64-bit signed value, so not a loop
  // bound the model can compute with (it once became -1: no iteration).
  for (i = 0; i < 18446744073709551615UL; i++) // expected-error {{condition is not affine}}
    A[i] = 0.0;
#pragma endscop
}
