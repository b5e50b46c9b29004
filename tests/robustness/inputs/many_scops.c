void kernel(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 0.0;
#pragma endscop
#pragma scop
#pragma endscop
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = A[i];
#pragma endscop
}
void other(int n, double A[100]) {
  int i;
#pragma scop
  for (i = n; i >= 0; i--)
    A[i] = 2.0;
#pragma endscop
}
