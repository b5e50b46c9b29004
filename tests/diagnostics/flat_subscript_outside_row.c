// A flat subscript whose constant part is a product of parameters is read
// with the largest row length that divides it: A[m - 1] as A[1][-1], a
// column outside its row wherever it runs, so no shape can be assumed.
// (A limitation: A[0][m - 1] would fit; declare the array with its rows.)
void kernel(int n, int m, double *restrict A) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i * m + j] = 0.0;
  A[0] = A[m - 1] + 1.0; // expected-error {{flat subscript 'm - 1' does not fit the shape of its array}}
#pragma endscop
}
