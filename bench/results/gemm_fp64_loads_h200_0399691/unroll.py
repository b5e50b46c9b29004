# gemm fp64 experiment: the tile copies' loops with the full tile's constant
# bounds (4096: every tile full), fully unrolled.
import sys
s = open(sys.argv[1]).read()
reps = [
 ("for (long k1 = ((64 * b0) + t0); k1 <= polycuda_min((ni - 1), ((64 * b0) + 63)); k1 += 8) {",
  "for (long k1 = ((64 * b0) + t0); k1 <= ((64 * b0) + 63); k1 += 8) {"),
 ("for (long k1 = (t0 + (32 * k0)); k1 <= polycuda_min((nk - 1), ((32 * k0) + 31)); k1 += 8) {",
  "for (long k1 = (t0 + (32 * k0)); k1 <= ((32 * k0) + 31); k1 += 8) {"),
 ("for (long k2 = ((128 * b1) + t1); k2 <= polycuda_min((nj - 1), ((128 * b1) + 127)); k2 += 32) {",
  "for (long k2 = ((128 * b1) + t1); k2 <= ((128 * b1) + 127); k2 += 32) {"),
]
for a, b in reps:
    assert s.count(a) == 1, a
    s = s.replace(a, "\n#pragma unroll\n" + b)
open(sys.argv[2], 'w').write(s)
