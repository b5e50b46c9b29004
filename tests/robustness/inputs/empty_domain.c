void kernel(int n, double A[100]) {
  int i, j;
#pragma scop
  for (i = 0; i < 0; i++)
    A[i] = 0.0;
  for (j = n; j < n - 5; j++)
    A[j] = 1.0;
#pragma endscop
}
