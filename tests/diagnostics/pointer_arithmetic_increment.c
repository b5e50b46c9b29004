// A pointer stepped through an array.
void kernel(int n, double *p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    p++; // expected-error {{pointer arithmetic 'p++' is not supported in a scop}}
#pragma endscop
}
