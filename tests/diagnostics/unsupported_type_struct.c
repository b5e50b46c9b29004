struct cell { double v; };
void kernel(int n, struct cell A[100], struct cell B[100]) { // expected-error {{type 'struct cell' is not supported}}
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = B[i];
#pragma endscop
}
