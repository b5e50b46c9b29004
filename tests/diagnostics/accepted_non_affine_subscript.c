// expected-no-diagnostics
// Non-affine subscripts are may-accesses of the whole extent of their
// dimension: a quadratic, a product of parameters, an index array (also one
// written in the scop), a scalar written in the scop, a dividend that may be
// negative (printed with C's division), nested indirection, a histogram.
void kernel(int n, int m, double A[10000], double B[100][100], int idx[100],
            int h[16], double x[100]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    A[i * i] = 1.0;
  for (i = 0; i < n; i++)
    A[n * m + i] = x[idx[i]];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      B[i][idx[j]] += B[idx[i]][j] * x[idx[idx[j]]];
  for (i = 0; i < n; i++)
    idx[i] = idx[(i + 1) % n] % 16;
  for (i = 0; i < n; i++)
    h[idx[i]]++;
  for (i = 0; i < n; i++) {
    k = idx[i] + 1;
    x[k] = 0.0;
  }
  for (i = -10; i < n; i++)
    A[i % 5 + 10] = A[(i - m) / 2 + 5000];
#pragma endscop
}
