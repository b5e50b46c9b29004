// expected-no-diagnostics
// Local scalars and declarations inside the scop, compound assignments.
void kernel(int n, float A[100], float B[100]) {
  int i;
#pragma scop
  for (i = 1; i < n - 1; i++) {
    float t = A[i - 1] + A[i + 1];
    t *= 0.5f;
    B[i] -= t;
    B[i]++;
  }
#pragma endscop
}
