// sumprod.cu -- sum-product bucket k(x,z) = sum_{w,y} f(x,y,z) g(w,x) h(w,y)
// with all extents n (doubles, row-major f[x][y][z], g[w][x], h[w][y],
// k[x][z]).  Variants: naive (one thread per (x,z), w and y loops reading
// global memory) and staged (a block per x and 32 consecutive z, 32x8
// threads: f[x][:][z-slice] staged once in shared memory, h and g staged by
// chunks of 8 w, partial sums over y slices reduced in shared memory);
// against polycuda's translation of kernels/sumprod.c.  FLOPs counted as
// the direct 3 n^4.  CPU reference in long double through the factorisation
// k(x,z) = sum_y f(x,y,z) * (sum_w g(w,x) h(w,y)).
#include "harness.h"
#include "generated_api.h"

#include <string>

namespace {

__global__ void sumprod_naive(int n, double *__restrict__ k, const double *__restrict__ f,
                              const double *__restrict__ g, const double *__restrict__ h) {
  int z = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || z >= n) return;
  double s = 0;
  for (int w = 0; w < n; w++)
    for (int y = 0; y < n; y++)
      s += f[((size_t)x * n + y) * n + z] * g[(size_t)w * n + x] * h[(size_t)w * n + y];
  k[(size_t)x * n + z] = s;
}

constexpr int SP = GEN_SP_N;  // the staged kernel is written for n == SP
constexpr int ZB = 32, YT = 8, WB = 8;

__global__ void __launch_bounds__(ZB * YT)
sumprod_staged(double *__restrict__ k, const double *__restrict__ f,
               const double *__restrict__ g, const double *__restrict__ h) {
  __shared__ double fs[SP][ZB];     // f[x][y][z0 + tz]
  __shared__ double hs[WB][SP];     // h[w0 + w][y]
  __shared__ double gs[WB];         // g[w0 + w][x]
  __shared__ double part[YT][ZB + 1];
  const int x = blockIdx.y, z0 = blockIdx.x * ZB;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * ZB + tx;
  for (int y = ty; y < SP; y += YT) fs[y][tx] = f[((size_t)x * SP + y) * SP + z0 + tx];
  double s = 0;
  for (int w0 = 0; w0 < SP; w0 += WB) {
    __syncthreads();
    for (int e = tid; e < WB * SP; e += ZB * YT) hs[e / SP][e % SP] = h[(size_t)(w0 + e / SP) * SP + e % SP];
    if (tid < WB) gs[tid] = g[(size_t)(w0 + tid) * SP + x];
    __syncthreads();
#pragma unroll
    for (int w = 0; w < WB; w++) {
      const double gw = gs[w];
#pragma unroll 4
      for (int y = ty; y < SP; y += YT) s += fs[y][tx] * gw * hs[w][y];
    }
  }
  part[ty][tx] = s;
  __syncthreads();
  if (ty == 0) {
    double t = 0;
#pragma unroll
    for (int r = 0; r < YT; r++) t += part[r][tx];
    k[(size_t)x * SP + z0 + tx] = t;
  }
}

void launch(const std::string &v, int n, double *k, const double *f,
            const double *g, const double *h) {
  if (v == "naive") {
    dim3 blk(32, 8), grd((n + 31) / 32, (n + 7) / 8);
    sumprod_naive<<<grd, blk>>>(n, k, f, g, h);
  } else {
    dim3 blk(ZB, YT), grd(SP / ZB, SP);
    sumprod_staged<<<grd, blk>>>(k, f, g, h);
  }
  CK_LAUNCH();
}

}  // namespace

void group_sumprod(Ctx &ctx) {
  const int n = SP;
  const std::string size = std::to_string(n) + "^4";
  const size_t n2 = (size_t)n * n, n3 = n2 * n;
  const double flops = 3.0 * n2 * n2;
  const double traffic = (double)(n3 + 3 * n2) * sizeof(double);
  double *hf = host_alloc<double>(n3), *hg = host_alloc<double>(n2),
         *hh = host_alloc<double>(n2), *hk = host_alloc<double>(n2);
  fill_random(hf, n3, 71);
  fill_random(hg, n2, 72);
  fill_random(hh, n2, 73);
  std::vector<long double> P(n2, 0.0L);
  for (int w = 0; w < n; w++)
    for (int x = 0; x < n; x++)
      for (int y = 0; y < n; y++) P[(size_t)x * n + y] += (long double)hg[(size_t)w * n + x] * hh[(size_t)w * n + y];
  std::vector<double> ref(n2);
  for (int x = 0; x < n; x++)
    for (int z = 0; z < n; z++) {
      long double s = 0;
      for (int y = 0; y < n; y++) s += hf[((size_t)x * n + y) * n + z] * P[(size_t)x * n + y];
      ref[(size_t)x * n + z] = (double)s;
    }

  const int copies = copies_for(ctx, (size_t)traffic);
  std::vector<double *> df(copies), dg(copies), dh(copies), dk(copies);
  for (int c = 0; c < copies; c++) {
    df[c] = dev_alloc<double>(n3);
    dg[c] = dev_alloc<double>(n2);
    dh[c] = dev_alloc<double>(n2);
    dk[c] = dev_alloc<double>(n2);
    h2d(df[c], hf, n3 * 8);
    h2d(dg[c], hg, n2 * 8);
    h2d(dh[c], hh, n2 * 8);
  }
  for (const char *vc : {"naive", "staged_smem"}) {
    std::string v = vc;
    poison_device(dk[0], n2 * 8);
    launch(v, n, dk[0], df[0], dg[0], dh[0]);
    CK(cudaDeviceSynchronize());
    d2h(hk, dk[0], n2 * 8);
    double err = rel_l2(hk, ref.data(), n2);
    Timing t = time_device(ctx, copies, [&](int c) {
      launch(v, n, dk[c], df[c], dg[c], dh[c]);
    });
    report(ctx, "sumprod", v + "/kernel", size, t, flops, traffic, err, kTolDouble);
    Timing te = time_host(ctx, [&]() {
      double *f = dev_alloc<double>(n3), *g = dev_alloc<double>(n2),
             *h = dev_alloc<double>(n2), *k = dev_alloc<double>(n2);
      h2d(f, hf, n3 * 8);
      h2d(g, hg, n2 * 8);
      h2d(h, hh, n2 * 8);
      launch(v, n, k, f, g, h);
      d2h(hk, k, n2 * 8);
      CK(cudaFree(f));
      CK(cudaFree(g));
      CK(cudaFree(h));
      CK(cudaFree(k));
    });
    report(ctx, "sumprod", v + "/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  {
    auto call = [&]() {
      bench_sumprod(n, (double(*)[SP])hk, (double(*)[SP][SP])hf,
                    (double(*)[SP])hg, (double(*)[SP])hh);
    };
    poison_host(hk, n2);
    call();
    double err = rel_l2(hk, ref.data(), n2);
    Timing te = time_host(ctx, call);
    report(ctx, "sumprod", "polycuda/e2e", size, te, flops, traffic, err, kTolDouble);
  }
  for (int c = 0; c < copies; c++) {
    CK(cudaFree(df[c]));
    CK(cudaFree(dg[c]));
    CK(cudaFree(dh[c]));
    CK(cudaFree(dk[c]));
  }
  CK(cudaFreeHost(hf));
  CK(cudaFreeHost(hg));
  CK(cudaFreeHost(hh));
  CK(cudaFreeHost(hk));
}
