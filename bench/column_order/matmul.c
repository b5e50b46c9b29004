/* matmul.c -- naive single-precision matrix product C = A * B (N x N), the
 * column-order benchmark's reuse-across-block-rows kernel (Prasetya 2022):
 * every row of blocks reads all of B along k.
 * -DN=... (default 1024), -DREPS=... calls of the scop (default 7), timed
 * by the runtime's profile (POLYCUDA_PROFILE=1). Prints a checksum of C.
 */
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef N
# define N 1024
#endif
#ifndef REPS
# define REPS 7
#endif

static float A[N][N], B[N][N], C[N][N];

static void kernel_matmul(float A[N][N], float B[N][N], float C[N][N])
{
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      C[i][j] = 0.0f;
      for (int k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)((i * 7 + j * 3) % 17) / 17.0f - 0.5f;
      B[i][j] = (float)((i * 5 + j * 11) % 13) / 13.0f - 0.5f;
    }
  for (int r = 0; r < REPS; r++)
    kernel_matmul(A, B, C);
  double sum = 0, weighted = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      sum += C[i][j];
      weighted += C[i][j] * (double)((i + 2 * j) % 7);
    }
  printf("checksum %.6e %.6e\n", sum, weighted);
  return 0;
}
