/* stencil9.c -- 9x9 weighted box filter on an N x N single-precision grid,
 * the neighbourhood clamped at the border: the column-order benchmark's
 * kernel whose reuse is between neighbouring blocks (halos), not across
 * whole rows of blocks.
 * -DN=... (default 4096), -DREPS=... calls of the scop (default 7), timed
 * by the runtime's profile (POLYCUDA_PROFILE=1). Prints a checksum of B.
 */
#include <stdio.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef N
# define N 4096
#endif
#ifndef REPS
# define REPS 7
#endif

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }

static float A[N][N], B[N][N], W[9][9];

static void kernel_stencil9(float A[N][N], float W[9][9], float B[N][N])
{
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      B[i][j] = 0.0f;
      for (int di = 0; di < 9; di++)
        for (int dj = 0; dj < 9; dj++)
          B[i][j] += W[di][dj] *
                     A[min(max(i + di - 4, 0), N - 1)][min(max(j + dj - 4, 0), N - 1)];
    }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (float)((i * 13 + j * 7) % 31) / 31.0f;
  for (int di = 0; di < 9; di++)
    for (int dj = 0; dj < 9; dj++)
      W[di][dj] = 1.0f / (1.0f + (float)((di - 4) * (di - 4) + (dj - 4) * (dj - 4)));
  for (int r = 0; r < REPS; r++)
    kernel_stencil9(A, W, B);
  double sum = 0, weighted = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      sum += B[i][j];
      weighted += B[i][j] * (double)((i + 2 * j) % 7);
    }
  printf("checksum %.6e %.6e\n", sum, weighted);
  return 0;
}
