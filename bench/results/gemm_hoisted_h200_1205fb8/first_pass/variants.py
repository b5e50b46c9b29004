import sys, re
src = open(sys.argv[1]).read()
out = sys.argv[2]
lines = src.split('\n')

def alpha(ls):
    r = []
    for l in ls:
        if re.search(r'polycuda_A_shared\[.*\] = A\[', l):
            l = l.replace('] = A[', '] = alpha * A[')
        l = l.replace('alpha * polycuda_A_shared[', 'polycuda_A_shared[')
        r.append(l)
    return r

def ind(l): return len(l) - len(l.lstrip(' '))

def hoist(ls, unroll):
    i = next(n for n, l in enumerate(ls) if 'for (long k1 = (32 * k0)' in l)
    fl = ls[i]; d = ind(fl)
    cond = ls[i + 1]; assert cond.strip().startswith('if (') and ind(cond) == d + 2
    j = next(n for n in range(i + 2, len(ls)) if ls[n] == ' ' * (d + 2) + '} else {')
    k = next(n for n in range(j + 1, len(ls)) if ls[n] == ' ' * (d + 2) + '}')
    assert ls[k + 1] == ' ' * d + '}'
    pr = [' ' * d + '#pragma unroll %d' % unroll] if unroll else []
    new = [' ' * d + cond.strip()] + pr + [fl] + ls[i + 2:j] + [' ' * d + '}', ' ' * d + '} else {', fl] + ls[j + 1:k] + [' ' * d + '}', ' ' * d + '}']
    return ls[:i] + new + ls[k + 2:]

def unroll(ls, u):
    i = next(n for n, l in enumerate(ls) if 'for (long k1 = (32 * k0)' in l)
    return ls[:i] + [' ' * ind(ls[i]) + '#pragma unroll %d' % u] + ls[i:]

v = sys.argv[3]
ls = lines
if 'A' in v: ls = alpha(ls)
if 'H' in v: ls = hoist(ls, 8 if 'U' in v else 0)
elif 'U' in v: ls = unroll(ls, 4)
if 'L' in v:
    ls = [l.replace('__global__ void kernel_gemm_scop0_kernel0', '__global__ void __launch_bounds__(256, 2) kernel_gemm_scop0_kernel0') for l in ls]
open(out, 'w').write('\n'.join(ls))
