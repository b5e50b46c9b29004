#pragma scop // expected-error {{'#pragma scop' must be inside a function body}}
int table[10];
#pragma endscop
void kernel(int n, double A[100]) {
  A[0] = n;
}
