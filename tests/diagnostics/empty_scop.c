void kernel(int n, double A[100]) {
#pragma scop // expected-warning {{scop region contains no statements; it is left as is}}
#pragma endscop
  A[0] = n;
}
