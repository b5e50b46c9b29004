void kernel(int n, int A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] <<= 1; // expected-error {{compound assignment '<<=' is not supported inside a scop}}
#pragma endscop
}
