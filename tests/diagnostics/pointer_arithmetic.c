// An element addressed by pointer arithmetic, as an assignment target.
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    *(A + i) = 0.0; // expected-error {{pointer arithmetic 'A + i' is not supported in a scop; index an array parameter instead, such as 'A[i + 1]'}}
#pragma endscop
}
