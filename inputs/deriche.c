/* deriche.c -- Deriche recursive edge-detection / smoothing filter on a W x H image (float default)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default float).  Prints every output array.
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
# ifndef W
#  define W 64
# endif
# ifndef H
#  define H 64
# endif
#elif defined(SMALL_DATASET)
# ifndef W
#  define W 192
# endif
# ifndef H
#  define H 128
# endif
#elif defined(MEDIUM_DATASET)
# ifndef W
#  define W 720
# endif
# ifndef H
#  define H 480
# endif
#elif defined(LARGE_DATASET)
# ifndef W
#  define W 4096
# endif
# ifndef H
#  define H 2160
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE float
#endif

#define EXP_FUN(x) exp(x)
#define POW_FUN(x, y) pow(x, y)

/* Integer element types print with %d, floating ones with %.10e. */
#define DATA_IS_INTEGER ((DATA_TYPE)0.5 == (DATA_TYPE)0)

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    if (DATA_IS_INTEGER)
      printf("%d", (int)a[i]);
    else
      printf("%.10e", (double)a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_deriche(int w, int h, DATA_TYPE alpha, DATA_TYPE imgIn[W][H],
                           DATA_TYPE imgOut[W][H], DATA_TYPE y1[W][H], DATA_TYPE y2[W][H])
{
  int i, j;
  DATA_TYPE xm1, tm1, ym1, ym2;
  DATA_TYPE xp1, xp2, tp1, tp2, yp1, yp2;
  DATA_TYPE k, a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;

#pragma scop
  /* filter coefficients (Deriche 1990, smoothing variant) */
  k = POW_FUN(1.0 - EXP_FUN(-alpha), 2.0)
      / (1.0 + 2.0 * alpha * EXP_FUN(-alpha) - EXP_FUN(-2.0 * alpha));
  a1 = k;
  a5 = k;
  a2 = k * EXP_FUN(-alpha) * (alpha - 1.0);
  a6 = a2;
  a3 = k * EXP_FUN(-alpha) * (alpha + 1.0);
  a7 = a3;
  a4 = -k * EXP_FUN(-2.0 * alpha);
  a8 = a4;
  b1 = 2.0 * EXP_FUN(-alpha);
  b2 = -EXP_FUN(-2.0 * alpha);
  c1 = 1.0;
  c2 = 1.0;

  /* horizontal, causal */
  for (i = 0; i < w; i++) {
    ym1 = 0.0;
    ym2 = 0.0;
    xm1 = 0.0;
    for (j = 0; j < h; j++) {
      y1[i][j] = a1 * imgIn[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i][j];
      ym2 = ym1;
      ym1 = y1[i][j];
    }
  }
  /* horizontal, anti-causal */
  for (i = 0; i < w; i++) {
    yp1 = 0.0;
    yp2 = 0.0;
    xp1 = 0.0;
    xp2 = 0.0;
    for (j = h - 1; j >= 0; j--) {
      y2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = imgIn[i][j];
      yp2 = yp1;
      yp1 = y2[i][j];
    }
  }
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      imgOut[i][j] = c1 * (y1[i][j] + y2[i][j]);

  /* vertical, causal */
  for (j = 0; j < h; j++) {
    tm1 = 0.0;
    ym1 = 0.0;
    ym2 = 0.0;
    for (i = 0; i < w; i++) {
      y1[i][j] = a5 * imgOut[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i][j];
      ym2 = ym1;
      ym1 = y1[i][j];
    }
  }
  /* vertical, anti-causal */
  for (j = 0; j < h; j++) {
    tp1 = 0.0;
    tp2 = 0.0;
    yp1 = 0.0;
    yp2 = 0.0;
    for (i = w - 1; i >= 0; i--) {
      y2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1;
      tp1 = imgOut[i][j];
      yp2 = yp1;
      yp1 = y2[i][j];
    }
  }
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      imgOut[i][j] = c2 * (y1[i][j] + y2[i][j]);
#pragma endscop
}

int main(void)
{
  static DATA_TYPE imgIn[W][H], imgOut[W][H], y1[W][H], y2[W][H];
  DATA_TYPE alpha = 0.25;
  int i, j;

  for (i = 0; i < W; i++)
    for (j = 0; j < H; j++)
      imgIn[i][j] = (DATA_TYPE)((313 * i + 991 * j) % 65536) / 65535.0f;

  kernel_deriche(W, H, alpha, imgIn, imgOut, y1, y2);

  print_array("imgOut", &imgOut[0][0], (long)W * H);
  return 0;
}
