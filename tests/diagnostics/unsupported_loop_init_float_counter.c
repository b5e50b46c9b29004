// A floating-point loop counter is refused.
void kernel(int n, double A[100]) {
#pragma scop
  for (float x = 0; x < n; x += 1) // expected-error {{loop initialization must assign the loop variable}}
    A[0] = A[0] + x;
#pragma endscop
}
