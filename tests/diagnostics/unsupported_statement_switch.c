void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    switch (i % 2) { // expected-error {{is not supported inside a scop}}
    case 0:
      A[i] = 0.0;
      break;
    default:
      A[i] = 1.0;
    }
  }
#pragma endscop
}
