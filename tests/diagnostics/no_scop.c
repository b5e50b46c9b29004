// expected-warning@1 {{no '#pragma scop' region found; the output is the input unchanged}}
void f(int n, double A[100]) {
  for (int i = 0; i < n; i++)
    A[i] = 0;
}
