void kernel(int n, double *A) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 0.0; // expected-error {{'A' is accessed through a pointer; declare it as an array parameter such as 'double A[N][M]'}}
#pragma endscop
}
