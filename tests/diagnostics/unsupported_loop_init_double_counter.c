// The diagnostic points at the declaration of the counter.
void kernel(int n, double A[100]) {
  double x; // expected-error {{loop initialization must assign the loop variable}}
#pragma scop
  for (x = 0.0; x < n; x += 0.5)
    A[0] = A[0] + x;
#pragma endscop
}
