void kernel(long n, double A[100]) {
  long i;
#pragma scop
  for (i = -9223372036854775807L; i < 9223372036854775807L; i += 4611686018427387904L)
    A[0] = A[0] + 1.0;
#pragma endscop
}
