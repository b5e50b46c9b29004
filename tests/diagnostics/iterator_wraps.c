// Unsigned and narrow loop variables wrap around in C where the model's
// integers do not: a loop that would leave its type's range is refused.
void wraps(int A[300]) {
  unsigned char i;
#pragma scop
  for (i = 0; i != 16; i += 65) // expected-error {{loop variable 'i' of type 'unsigned char' may take a value outside its type, which C wraps around, or the loop may not end; give it a wider signed type such as 'int' or 'long'}}
    A[i] = 1;
#pragma endscop
}

void never_ends(int A[300], int n) {
#pragma scop
  for (unsigned i = n; i >= 0; i--) // expected-error {{loop variable 'i' of type 'unsigned int' may take a value outside its type, which C wraps around, or the loop may not end; give it a wider signed type such as 'int' or 'long'}}
    A[i] = 1;
#pragma endscop
}
