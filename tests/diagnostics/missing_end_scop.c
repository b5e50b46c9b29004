void kernel(int n, double A[100]) {
  int i;
#pragma scop // expected-error {{'#pragma scop' without a matching '#pragma endscop'; add '#pragma endscop' after the region}}
  for (i = 0; i < n; i++)
    A[i] = 0.0;
}
