// The dividend depends on a parameter of unknown sign.
void kernel(int n, int m, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[(i + m) / 2] = 0.0; // expected-error {{may be negative}}
#pragma endscop
}
