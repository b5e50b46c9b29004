void kernel(int n, double A[100]) {
  int i = 0;
#pragma scop
  for (; i < n; i++) // expected-error {{loop initialization must assign the loop variable, e.g. 'i = 0' or 'int i = 0'}}
    A[i] = 0.0;
#pragma endscop
}
