void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
#pragma scop // expected-error {{'#pragma scop' inside another scop; scops cannot nest}}
    A[i] = 0.0;
  }
#pragma endscop
}
