/* harness.c: builds one kernel source (argv[1]) with options argv[2] on
 * every OpenCL device, runs kernel_random_scop1_kernel1 for n=11, m=18 and
 * prints, per i, how many products C[i+2][i] received (expected
 * separately from the sequential loops). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb"); fseek(f, 0, SEEK_END); long n = ftell(f);
  rewind(f); char *s = malloc(n + 1); fread(s, 1, n, f); s[n] = 0; fclose(f);
  return s;
}
int main(int argc, char **argv) {
  const char *src = slurp(argv[1]);
  const char *opts = argc > 2 ? argv[2] : "-cl-std=CL1.2";
  long n = 11, m = 18, ld = 21;
  double init[14 * 14];
  for (int i = 0; i < 14; i++)
    for (int j = 0; j < 14; j++)
      init[i * 14 + j] = (double)((7 * i + 3 * j + 3) % 17) / 17 + 0.5;
  /* expected counts: the sequential loops */
  int want[14] = {0};
  for (int i = 0; i < n - 1; i++)
    for (int j = m - 1; j > i - 1; j--)
      for (int k = m - i - 1; k >= (1 < j - 3 ? j - 3 : 1); k--) want[i]++;
  cl_platform_id plats[8]; cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id dev; cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, &nd) || !nd) continue;
    char name[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
    if (err) { char log[8192]; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf("%s: build failed %d: %s\n", name, err, log); continue; }
    cl_kernel k = clCreateKernel(prog, "kernel_random_scop1_kernel1", &err);
    double c[14 * 14];
    for (int i = 0; i < 196; i++) c[i] = init[i];
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof c, c, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf); clSetKernelArg(k, 1, sizeof n, &n);
    clSetKernelArg(k, 2, sizeof m, &m); clSetKernelArg(k, 3, sizeof ld, &ld);
    size_t g = 32, l = 32;
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    printf("%s [%s]:", name, opts);
    int bad = 0;
    for (int i = 0; i < n - 1; i++) {
      double r = c[(i + 2) * 14 + i] / init[(i + 2) * 14 + i];
      int got = (int)lround(log(r) / log(0.75));
      printf(" %d/%d", got, want[i]);
      bad += got != want[i];
    }
    printf(bad ? "  WRONG\n" : "  ok\n");
  }
  return 0;
}
