/* structs.c -- arrays of structs as C programs write them: particles
 * ({x, y, vx, vy} doubles, a file-scope array) moved in a time loop, a
 * second array of them written field by field from the first, and a grid
 * of float pairs. An array of structs whose fields have one type is an
 * array with one more dimension, the field (P[i].vy is P[i][3]): a field is
 * a strided access, which the report says, and copies move the structs
 * with their layout.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 200
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 4000
# endif
#endif

struct particle { double x, y, vx, vy; };
struct pair { float re, im; };

static struct particle P[N];

static void kernel_structs(int n, int steps, struct particle Q[N],
                           struct pair G[N][N], double E[N])
{
#pragma scop
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++) {
      P[i].x += 0.1 * P[i].vx;
      P[i].y += 0.1 * P[i].vy;
      P[i].vy -= 0.01 * P[i].y;
    }
  for (int i = 0; i < n; i++) {
    Q[i].x = P[i].x * 2.0;
    Q[i].vx = P[i].vx + Q[i].vy;
    E[i] = 0.5 * (P[i].vx * P[i].vx + P[i].vy * P[i].vy);
  }
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      G[i][j].re = 0.5f * G[i][j].re + 0.25f * (G[i - 1][j].im + G[i + 1][j].im);
      G[i][j].im -= 0.125f * G[i][j - 1].re;
    }
#pragma endscop
}

int main(void)
{
  static struct particle Q[N];
  static struct pair G[N][N];
  static double E[N];
  int i, j;

  for (i = 0; i < N; i++) {
    P[i].x = i * 0.1;
    P[i].y = (i % 7) * 0.2;
    P[i].vx = (i % 3) * 0.5;
    P[i].vy = (i % 5) * 0.25;
    Q[i].x = Q[i].y = 1.0;
    Q[i].vx = 0.5;
    Q[i].vy = (i % 4) * 0.125;
    for (j = 0; j < N; j++) {
      G[i][j].re = (float)((i * 3 + j * 5) % 11) / 11;
      G[i][j].im = (float)((i * 7 + j) % 13) / 13;
    }
  }

  kernel_structs(N - 3, 5, Q, G, E);

  printf("== P\n");
  for (i = 0; i < N; i++)
    printf("%.10e %.10e %.10e %.10e\n", P[i].x, P[i].y, P[i].vx, P[i].vy);
  printf("== Q\n");
  for (i = 0; i < N; i++)
    printf("%.10e %.10e %.10e %.10e\n", Q[i].x, Q[i].y, Q[i].vx, Q[i].vy);
  printf("== G\n");
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      printf("%.6e %.6e%c", G[i][j].re, G[i][j].im, j == N - 1 ? '\n' : ' ');
  printf("== E\n");
  for (i = 0; i < N; i++)
    printf("%.10e\n", E[i]);
  return 0;
}
