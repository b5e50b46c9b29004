// Unsigned and narrow loop variables whose values stay within their type
// are accepted, their value after the loop included.
// expected-no-diagnostics
int out[2];
void narrow(int A[300], unsigned m) {
  unsigned char i;
  short j;
#pragma scop
  for (i = 0; i < 200; i++)
    A[i] = 1;
  for (j = 299; j >= 0; j -= 3)
    A[j] = 2;
  for (unsigned k = 0; k < m; k++)
    A[k % 300] = 3;
#pragma endscop
  out[0] = i;
  out[1] = j;
}
