// A non-affine subscript accesses the whole extent of its dimension, which
// an array without a first size does not have.
void kernel(int n, double A[]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i * i] = 1.0; // expected-error {{array subscript is not affine: i * i, and the array's first dimension has no size; declare it with a size such as 'double A[n]' so that the whole array can be accessed}}
#pragma endscop
}
