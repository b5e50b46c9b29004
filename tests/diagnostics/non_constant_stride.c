void kernel(int n, int k, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i += k) // expected-error {{loop increment must be a constant step such as i++, i--, i += 2 or i -= 2}}
    A[i] = 0.0;
#pragma endscop
}
