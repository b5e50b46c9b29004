// The scop pragmas come from macros (_Pragma) and the nest from a header-less
// macro expansion.
#define BEGIN _Pragma("scop")
#define END _Pragma("endscop")
#define LOOP(v, n) for (v = 0; v < (n); v++)
void kernel(int n, double A[100]) {
  int i;
  BEGIN
  LOOP(i, n)
    A[i] = 0.0;
  END
}
