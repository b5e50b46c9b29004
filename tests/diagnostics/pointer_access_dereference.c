void kernel(int n, double *p, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = *p; // expected-error {{'p' is accessed through a pointer}}
#pragma endscop
}
