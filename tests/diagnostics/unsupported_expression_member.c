struct point { double x, y; };
void kernel(int n, double A[100], struct point p) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = p.x; // expected-error {{is not supported in a scop statement}}
#pragma endscop
}
