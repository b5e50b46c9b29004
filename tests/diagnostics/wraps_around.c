// A value the scop computes in unsigned arithmetic that leaves its type for
// every value of the parameters is refused: C wraps it around, the model's
// integers would not. (Where only some parameter values make it wrap, the
// scop is accepted and checks them when it starts: inputs/unsigned_wrap.c.)
void wraps(double A[300], int n) {
#pragma scop
  for (unsigned i = 0; i - 1 < n; i++) // expected-error {{'i - 1' (of type 'unsigned int') wraps around for every value of the parameters: C computes it modulo the range of its type; compute it in a wider signed type such as 'long'}}
    A[i] = 1;
#pragma endscop
}
