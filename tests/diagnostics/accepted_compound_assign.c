// expected-no-diagnostics
// Every compound assignment of C, ++ and -- on integer, unsigned and
// floating elements and on local scalars ('<<=' and the others were refused
// as "compound assignment '<<=' is not supported inside a scop").
void kernel(int n, int A[100], unsigned U[100], unsigned char C[100],
            long L[100], float F[100], double D[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    int s = A[i];
    A[i] <<= 1;
    A[i] >>= 2;
    A[i] %= 7;
    A[i] &= 0x3f;
    A[i] |= 1;
    A[i] ^= i;
    U[i] -= i;
    U[i] *= 2654435761u;
    U[i] /= 3;
    C[i] += 200;
    C[i] <<= i % 5;
    L[i] ^= sizeof(long);
    s %= 3;
    s <<= 2;
    s--;
    U[i] += s;
    F[i] /= 3;
    D[i] /= F[i];
    D[i]--;
    ++C[i];
  }
#pragma endscop
}
