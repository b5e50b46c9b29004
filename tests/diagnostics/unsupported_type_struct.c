struct cell { double v; };
void kernel(int n, struct cell A[100], struct cell B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = B[i]; // expected-error {{a whole struct ('B[i]') is not supported in a scop; read and assign its fields one by one}}
#pragma endscop
}
