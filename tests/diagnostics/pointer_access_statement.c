// A store through a pointer.
void kernel(int n, double *p, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    *p += A[i]; // expected-error {{'p' is accessed through a pointer; declare it as an array parameter such as 'double A[N][M]'}}
#pragma endscop
}
