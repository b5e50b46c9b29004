// A flat subscript that reads a loop variable after its loop (a scalar of
// the scop, not an iterator) has no row and column to read it as.
void kernel(int n, int m, double *restrict A) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i * m + j] = 1.0;
  A[j] = A[(n - 1) * m + j - 1]; // expected-error {{flat subscript '(n - 1) * m + j - 1' reads a variable that is not a loop variable of a loop around it}}
#pragma endscop
}
