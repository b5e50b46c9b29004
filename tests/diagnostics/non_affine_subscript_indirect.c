// Through an index array, into an array of rows without a first size: the
// column subscript is affine, the row subscript is not.
void kernel(int n, double A[][100], int idx[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[idx[i]][i] = 1.0; // expected-error {{array subscript is not affine: idx[i], and the array's first dimension has no size}}
#pragma endscop
}
