static double get(const double *p, int i) { return p[i]; }
void kernel(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = get(A, i); // expected-error {{a call of 'get' with 'A' for its parameter 'p', which is not a number (only functions of numbers are inlined) is not supported in a scop statement}}
#pragma endscop
}
