/* smooth.h -- the kernel of the polycuda CMake example
 *
 * kernel_smooth relaxes the grid A for tsteps steps of a 5-point average
 * (through the scratch grid B), then forms the weighted row sums r = A w.
 * Sizes: -DN=... (grid edge), -DTSTEPS=... (steps).
 */
#ifndef SMOOTH_H
#define SMOOTH_H

#ifndef N
# define N 40
#endif
#ifndef TSTEPS
# define TSTEPS 8
#endif

void kernel_smooth(int n, int tsteps, double A[N][N], double B[N][N],
                   double w[N], double r[N]);

#endif
