// expected-no-diagnostics
// continue and break at the end of a branch of an if directly in a loop
// body (through plain blocks): on iterators, on data, in the else branch.
void kernel(int n, double A[100][100], int K[100]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (i == j)
        continue;
      {
        if (A[i][j] < 0.0) {
          A[i][j] = 0.0;
          continue;
        }
      }
      if (j > K[i])
        break;
      if (j < i)
        A[i][j] *= 2.0;
      else
        break;
    }
#pragma endscop
}
