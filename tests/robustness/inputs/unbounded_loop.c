// The condition does not bound the loop variable.
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; n > 0; i++)
    A[0] = A[0] + 1.0;
#pragma endscop
}
