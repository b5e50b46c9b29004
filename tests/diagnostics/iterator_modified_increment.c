void kernel(int n, double A[100][100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      A[i][j] = 0.0;
      i++; // expected-error {{loop variable 'i' is modified in the loop body}}
    }
#pragma endscop
}
