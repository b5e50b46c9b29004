void kernel(int n, int m, double A[100][100]) {
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < m; j++)
      A[i][j] = A[i - 1][j] + A[i][j - 1] + A[i - 1][j + 1];
#pragma endscop
}
