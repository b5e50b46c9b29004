void kernel(int n, double A[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
}
