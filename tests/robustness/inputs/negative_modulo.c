void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = -50; i < n; i++)
    A[(i % 7) + 50] = A[(i / 3) + 50] + A[i % -3 + 50];
#pragma endscop
}
