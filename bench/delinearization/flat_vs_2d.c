/* flat_vs_2d.c -- the same gemm and 5-point stencil written twice: with
 * flat `double *restrict` arrays indexed as `A[i * nk + k]` (-DFLAT), which
 * polycuda delinearizes, and with `double A[ni][nk]` parameters (default).
 * Issue 47 asks the flat form to run within 5% of the 2-D form.
 *
 * Prints each region's time (clock_gettime around the call, five calls, the
 * first untimed) and a checksum of each output, so that the two forms can be
 * compared in one run. Sizes: -DNI=... -DNJ=... -DNK=... -DSN=... -DSTEPS=...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#ifndef NI
# define NI 2000
#endif
#ifndef NJ
# define NJ 2300
#endif
#ifndef NK
# define NK 2600
#endif
#ifndef SN
# define SN 4000
#endif
#ifndef STEPS
# define STEPS 20
#endif
#define CALLS 5

#ifdef FLAT
static void gemm(int ni, int nj, int nk, double alpha, double beta,
                 double *restrict C, const double *restrict A,
                 const double *restrict B)
{
#pragma scop
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
#pragma endscop
}

static void stencil(int n, int steps, double *restrict u, double *restrict v)
{
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.2 * (u[i * n + j] + u[(i - 1) * n + j] +
                              u[(i + 1) * n + j] + u[i * n + j - 1] +
                              u[i * n + j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i * n + j] = v[i * n + j];
  }
#pragma endscop
}
#else
static void gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
#pragma scop
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
#pragma endscop
}

static void stencil(int n, int steps, double u[n][n], double v[n][n])
{
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i][j] = 0.2 * (u[i][j] + u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                         u[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma endscop
}
#endif

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double checksum(const double *a, long count)
{
  double s = 0.0;
  for (long i = 0; i < count; i++)
    s += a[i] * (double)(i % 7 + 1);
  return s;
}

static void report(const char *name, const double *ms, const double *a,
                   long count)
{
  double best = ms[1], sum = 0.0;
  for (int c = 1; c < CALLS; c++) {
    best = ms[c] < best ? ms[c] : best;
    sum += ms[c];
  }
  printf("%s,%s,%.3f,%.3f,%.12e\n", name,
#ifdef FLAT
         "flat",
#else
         "2d",
#endif
         best, sum / (CALLS - 1), checksum(a, count));
}

int main(void)
{
  double *A = malloc(sizeof(double) * NI * NK);
  double *B = malloc(sizeof(double) * NK * NJ);
  double *C = malloc(sizeof(double) * NI * NJ);
  double *u = malloc(sizeof(double) * SN * SN);
  double *v = malloc(sizeof(double) * SN * SN);
  double ms[CALLS];

  for (long i = 0; i < (long)NI * NK; i++)
    A[i] = (double)((i * 7) % 17) / 17;
  for (long i = 0; i < (long)NK * NJ; i++)
    B[i] = (double)((i * 5) % 13) / 13;
  for (int c = 0; c < CALLS; c++) {
    for (long i = 0; i < (long)NI * NJ; i++)
      C[i] = (double)((i * 3) % 11) / 11;
    double t0 = now_ms();
#ifdef FLAT
    gemm(NI, NJ, NK, 1.5, 1.2, C, A, B);
#else
    gemm(NI, NJ, NK, 1.5, 1.2, (double (*)[NJ])C, (double (*)[NK])A,
         (double (*)[NJ])B);
#endif
    ms[c] = now_ms() - t0;
  }
  report("gemm", ms, C, (long)NI * NJ);

  for (int c = 0; c < CALLS; c++) {
    for (long i = 0; i < (long)SN * SN; i++) {
      u[i] = (double)((i * 3 + 1) % 19) / 19;
      v[i] = 0.0;
    }
    double t0 = now_ms();
#ifdef FLAT
    stencil(SN, STEPS, u, v);
#else
    stencil(SN, STEPS, (double (*)[SN])u, (double (*)[SN])v);
#endif
    ms[c] = now_ms() - t0;
  }
  report("stencil", ms, u, (long)SN * SN);
  free(A); free(B); free(C); free(u); free(v);
  return 0;
}
