#pragma OPENCL EXTENSION cl_khr_fp64 : enable
static inline long polycuda_floord(long n, long d) {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}
static inline long polycuda_min(long a, long b) { return a < b ? a : b; }
static inline long polycuda_max(long a, long b) { return a > b ? a : b; }
static inline long polycuda_min_arith(long a, long b) {
  long d = a - b;
  return b + (d & (d >> (8 * sizeof(d) - 1)));
}
static inline long polycuda_max_arith(long a, long b) {
  long d = a - b;
  return a - (d & (d >> (8 * sizeof(d) - 1)));
}
__kernel void kernel_random_scop1_kernel1(__global double *restrict C, long n, long m, long ld_M) {
  const long b0 = get_group_id(0);
  const long t0 = get_local_id(0);
  volatile double polycuda_C_reg; /* C across loop j */
  if (((m >= (t0 + 2)) && (n >= ((t0 + (32 * b0)) + 2))) && ((m + 2) >= ((2 * t0) + (64 * b0)))) {
    polycuda_C_reg = C[(((t0 + (32 * b0)) + 2)) * (14) + (t0 + (32 * b0))];
    for (long k1 = polycuda_max(((-m) + 1), ((((-m) + t0) + (32 * b0)) - 2)); k1 <= ((-t0) - (32 * b0)); k1 += 1) {
      for (long k2 = ((((-m) + t0) + (32 * b0)) + 1); k2 <= polycuda_min(-1, (k1 + 3)); k2 += 1) {
        polycuda_C_reg *= 7.50000000000000000e-01;
      }
    }
    C[(((t0 + (32 * b0)) + 2)) * (14) + (t0 + (32 * b0))] = polycuda_C_reg;
  }
}
