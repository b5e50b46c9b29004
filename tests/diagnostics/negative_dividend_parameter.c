// The dividend depends on a parameter of unknown sign.
void kernel(int n, int m, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < (n + m) / 2; i++) // expected-error {{may be negative}}
    A[i] = 0.0;
#pragma endscop
}
