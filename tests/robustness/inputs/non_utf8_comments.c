// Non-UTF-8 bytes in comments and a string outside the scop.
// ÿþÃ(
const char *tag = " ¡â(";
void kernel(int n, double A[100]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) /* ð(Œ¼ */
    A[i] = 0.0;
#pragma endscop
}
