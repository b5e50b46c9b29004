// A sum of 10,000 terms through macros: refused before any recursive walk
// over it could overflow the stack (robustness: a 20,000-term sum crashed).
#define T10(x) x + x + x + x + x + x + x + x + x + x
#define T10000(x) T10(T10(T10(T10(x))))
void f(int n, double A[100], double B[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = T10000(B[i]); // expected-error {{expression nested deeper than 1000 levels}}
#pragma endscop
}
