# Hand experiment: the full tile's loop over k of gemm's printed kernel
# (32 x 8 threads, 4 x 8 points) rewritten to read A two steps of k at a
# time (one 16-byte shared load per row), same accumulation order.
import sys
src, dst = sys.argv[1], sys.argv[2]
ls = open(src).read().split('\n')
i = next(n for n, l in enumerate(ls) if l == '#pragma unroll 4')
fl = ls[i + 1]; d = len(fl) - len(fl.lstrip())
assert fl.strip().startswith('for (long k1 = (32 * k0); k1 <= ')
j = next(n for n in range(i + 2, len(ls)) if ls[n] == ' ' * (d - 2) + '} else {')
hi = fl.split('k1 <= ')[1].split('; k1 += 1')[0]
ind = ' ' * d
body = f'''{ind}{{
{ind}  const long lo = (32 * k0), hi = {hi};
{ind}  long k1 = lo;
{ind}#pragma unroll 2
{ind}  for (; k1 + 1 <= hi; k1 += 2) {{
{ind}    double2 a[8];
{ind}#pragma unroll
{ind}    for (int r = 0; r < 8; ++r)
{ind}      a[r] = *reinterpret_cast<const double2 *>(&polycuda_A_shared[((((64 * b0) + t0) + (8 * r)) - polycuda_A_off0) * 32 + (k1 - polycuda_A_off1)]);
{ind}    double bx[4], by[4];
{ind}#pragma unroll
{ind}    for (int c = 0; c < 4; ++c) {{
{ind}      bx[c] = polycuda_B_shared[(k1 - polycuda_B_off0) * 128 + ((((128 * b1) + t1) + (32 * c)) - polycuda_B_off1)];
{ind}      by[c] = polycuda_B_shared[((k1 + 1) - polycuda_B_off0) * 128 + ((((128 * b1) + t1) + (32 * c)) - polycuda_B_off1)];
{ind}    }}
{ind}#pragma unroll
{ind}    for (int r = 0; r < 8; ++r)
{ind}#pragma unroll
{ind}      for (int c = 0; c < 4; ++c) {{
{ind}        polycuda_C_reg[r * 4 + c] += a[r].x * bx[c];
{ind}        polycuda_C_reg[r * 4 + c] += a[r].y * by[c];
{ind}      }}
{ind}  }}
{ind}  for (; k1 <= hi; k1 += 1)
{ind}#pragma unroll
{ind}    for (int r = 0; r < 8; ++r)
{ind}#pragma unroll
{ind}      for (int c = 0; c < 4; ++c)
{ind}        polycuda_C_reg[r * 4 + c] += polycuda_A_shared[((((64 * b0) + t0) + (8 * r)) - polycuda_A_off0) * 32 + (k1 - polycuda_A_off1)] * polycuda_B_shared[(k1 - polycuda_B_off0) * 128 + ((((128 * b1) + t1) + (32 * c)) - polycuda_B_off1)];
{ind}}}'''.split('\n')
out = ls[:i] + body + ls[j:]
s = '\n'.join(out).replace('__shared__ double polycuda_A_shared', '__shared__ __align__(16) double polycuda_A_shared')
open(dst, 'w').write(s)
