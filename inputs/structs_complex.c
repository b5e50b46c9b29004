/* structs_complex.c -- arrays of structs in numerical code: a complex
 * matrix-vector product over `typedef struct { double re, im; } complex_t`
 * (restrict pointers to rows of them), the squared magnitudes of the
 * result, and a 3-point blur of an image of `struct rgb { double r, g, b; }`
 * pixels, field by field. Each field is a strided access of an array with
 * one more dimension (Z[i][j].im is Z[i][j][1]).
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 24
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 120
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 600
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2000
# endif
#endif

typedef struct { double re, im; } complex_t;
struct rgb { double r, g, b; };

/* y = Z x and mag[i] = |y[i]|^2, complex. */
static void complex_mv(int n, complex_t (*restrict Z)[N],
                       const complex_t *restrict x, complex_t *restrict y,
                       double *restrict mag)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    y[i].re = 0.0;
    y[i].im = 0.0;
    for (int j = 0; j < n; j++) {
      y[i].re += Z[i][j].re * x[j].re - Z[i][j].im * x[j].im;
      y[i].im += Z[i][j].re * x[j].im + Z[i][j].im * x[j].re;
    }
    mag[i] = y[i].re * y[i].re + y[i].im * y[i].im;
  }
#pragma endscop
}

/* A horizontal then a vertical 3-point blur of each channel. */
static void blur(int h, int w, struct rgb img[N][N], struct rgb tmp[N][N])
{
#pragma scop
  for (int i = 0; i < h; i++)
    for (int j = 1; j < w - 1; j++) {
      tmp[i][j].r = (img[i][j - 1].r + img[i][j].r + img[i][j + 1].r) / 3.0;
      tmp[i][j].g = (img[i][j - 1].g + img[i][j].g + img[i][j + 1].g) / 3.0;
      tmp[i][j].b = (img[i][j - 1].b + img[i][j].b + img[i][j + 1].b) / 3.0;
    }
  for (int i = 1; i < h - 1; i++)
    for (int j = 1; j < w - 1; j++) {
      img[i][j].r = (tmp[i - 1][j].r + tmp[i][j].r + tmp[i + 1][j].r) / 3.0;
      img[i][j].g = (tmp[i - 1][j].g + tmp[i][j].g + tmp[i + 1][j].g) / 3.0;
      img[i][j].b = (tmp[i - 1][j].b + tmp[i][j].b + tmp[i + 1][j].b) / 3.0;
    }
#pragma endscop
}

int main(void)
{
  static complex_t Z[N][N], x[N], y[N];
  static struct rgb img[N][N], tmp[N][N];
  static double mag[N];
  int i, j;

  for (i = 0; i < N; i++) {
    x[i].re = (double)(i % 7) / 7;
    x[i].im = (double)((3 * i + 1) % 5) / 5 - 0.5;
    for (j = 0; j < N; j++) {
      Z[i][j].re = (double)((i * 3 + j * 5) % 11) / 11;
      Z[i][j].im = (double)((i * 7 + j) % 13) / 13 - 0.5;
      img[i][j].r = (double)((i + 2 * j) % 17) / 17;
      img[i][j].g = (double)((3 * i + j) % 19) / 19;
      img[i][j].b = (double)((i * j) % 23) / 23;
      tmp[i][j].r = tmp[i][j].g = tmp[i][j].b = 0.0;
    }
  }

  complex_mv(N, Z, x, y, mag);
  blur(N, N, img, tmp);

  printf("== y\n");
  for (i = 0; i < N; i++)
    printf("%.10e %.10e\n", y[i].re, y[i].im);
  printf("== mag\n");
  for (i = 0; i < N; i++)
    printf("%.10e\n", mag[i]);
  printf("== img\n");
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      printf("%.10e %.10e %.10e%c", img[i][j].r, img[i][j].g, img[i][j].b,
             j == N - 1 ? '\n' : ' ');
  return 0;
}
