/* fdtd_2d.c -- 2-D finite-difference time-domain (TE mode: ex, ey, hz)
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type: -DDATA_TYPE=... (default double).  Prints every output array.
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
# ifndef TMAX
#  define TMAX 20
# endif
# ifndef NX
#  define NX 20
# endif
# ifndef NY
#  define NY 30
# endif
#elif defined(SMALL_DATASET)
# ifndef TMAX
#  define TMAX 40
# endif
# ifndef NX
#  define NX 60
# endif
# ifndef NY
#  define NY 80
# endif
#elif defined(MEDIUM_DATASET)
# ifndef TMAX
#  define TMAX 100
# endif
# ifndef NX
#  define NX 200
# endif
# ifndef NY
#  define NY 240
# endif
#elif defined(LARGE_DATASET)
# ifndef TMAX
#  define TMAX 500
# endif
# ifndef NX
#  define NX 1000
# endif
# ifndef NY
#  define NY 1200
# endif
#endif

#ifndef DATA_TYPE
# define DATA_TYPE double
#endif

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

static void kernel_fdtd_2d(int tmax, int nx, int ny, DATA_TYPE ex[NX][NY], DATA_TYPE ey[NX][NY],
                           DATA_TYPE hz[NX][NY], DATA_TYPE fict[TMAX])
{
#pragma scop
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++)
      ey[0][j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

int main(void)
{
  static DATA_TYPE ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

  for (int t = 0; t < TMAX; t++)
    fict[t] = (DATA_TYPE)t;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      ex[i][j] = (DATA_TYPE)(i * (j + 1)) / NX;
      ey[i][j] = (DATA_TYPE)(i * (j + 2)) / NY;
      hz[i][j] = (DATA_TYPE)(i * (j + 3)) / NX;
    }

  kernel_fdtd_2d(TMAX, NX, NY, ex, ey, hz, fict);

  print_array("ex", &ex[0][0], (long)NX * NY);
  print_array("ey", &ey[0][0], (long)NX * NY);
  print_array("hz", &hz[0][0], (long)NX * NY);
  return 0;
}
