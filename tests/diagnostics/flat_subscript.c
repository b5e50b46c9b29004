// A flat array whose subscripts have two different row lengths (m and n)
// fits no one shape: refused, naming the subscript.
void kernel(int n, int m, double *restrict A) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i * m + j] = A[i * n + j] + 1.0; // expected-error {{flat subscript 'i * n + j' does not fit the shape of its array}}
#pragma endscop
}
