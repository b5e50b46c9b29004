# gemm fp64 experiment: A's shared tile transposed, its rows interleaved so
# that the 8 rows t0 + 8 * k2 a thread reads at one k are contiguous
# (column c = 8 * (r % 8) + r / 8), and each row rotated by k pairs of
# doubles (no padding: 48 KB), read as four 16-byte loads per k.
import sys
src = open(sys.argv[1]).read().split('\n')
out = []
i = 0
def idx(k, c):
    return "(%s) * 64 + 2 * ((((%s) >> 1) + (%s)) & 31) + ((%s) & 1)" % (k, c, k, c)
full = "polycuda_A_shared[(((((((64 * b0) + t0) + (8 * k2)))) - polycuda_A_off0)) * 32 + (((k1)) - polycuda_A_off1)]"
store = "polycuda_A_shared[(((k1) - polycuda_A_off0)) * 32 + (((t1 + (32 * k0))) - polycuda_A_off1)]"
done = False
while i < len(src):
    l = src[i]
    if not done and l.strip() == "#pragma unroll 4":
        loop = src[i + 1]
        ind = loop[:len(loop) - len(loop.lstrip()) - 2]
        j = i + 2
        while src[j] != ind + "} else {":
            j += 1
        out.append("#pragma unroll 4")
        out.append(loop)
        body = ind + "    "
        out.append(body + "const long kk = k1 - polycuda_A_off1;")
        out.append(body + "const double2 *arow = (const double2 *)&polycuda_A_shared[kk * 64];")
        out.append(body + "double a[8];")
        if len(sys.argv) > 3:  # original layout, scalar loads
            for m in range(8):
                out.append(body + "a[%d] = polycuda_A_shared[(t0 + %d) * 32 + kk];" % (m, 8 * m))
        for m in (range(4) if len(sys.argv) <= 3 else []):
            out.append(body + "{ double2 v = arow[((4 * t0 + %d) + kk) & 31]; a[%d] = v.x; a[%d] = v.y; }" % (m, 2 * m, 2 * m + 1))
        out.append(body + "double b[4];")
        for k3 in range(4):
            out.append(body + "b[%d] = polycuda_B_shared[(k1 - polycuda_B_off0) * 128 + ((128 * b1 + t1 + %d) - polycuda_B_off1)];" % (k3, 32 * k3))
        for k2 in range(8):
            for k3 in range(4):
                out.append(body + "polycuda_C_reg[%d] += a[%d] * b[%d];" % (k2 * 4 + k3, k2, k3))
        out.append(ind + "  }")
        i = j
        done = True
        continue
    if len(sys.argv) > 3:
        out.append(l); i += 1; continue
    l = l.replace("__shared__ double polycuda_A_shared[2048];", "__shared__ __align__(16) double polycuda_A_shared[2048];")
    l = l.replace(store, "polycuda_A_shared[%s]" % idx("t1", "8 * (((k1) - polycuda_A_off0) % 8) + ((k1) - polycuda_A_off0) / 8"))
    l = l.replace(full, "polycuda_A_shared[%s]" % idx("((k1)) - polycuda_A_off1", "8 * t0 + k2"))
    out.append(l)
    i += 1
assert done
open(sys.argv[2], 'w').write('\n'.join(out))
