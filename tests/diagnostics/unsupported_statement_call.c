// A call to a math function whose value is thrown away does nothing.
#include <math.h>
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    sqrt(A[i]); // expected-error {{a call to 'sqrt' whose result is not used is not supported inside a scop}}
#pragma endscop
}
