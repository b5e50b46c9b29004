// Experiment: sum-product shapes against the staged baseline.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <functional>
#define SP 128
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s line %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

// today: (x, z) per thread, 32 x 2 blocks, g staged, k in a register.
__global__ void sp0(double *__restrict__ k, const double *__restrict__ f, const double *__restrict__ g, const double *__restrict__ h, long n) {
  long x = 2 * blockIdx.y + threadIdx.y, z = 32 * blockIdx.x + threadIdx.x;
  if (x >= n || z >= n) return;
  double s = 0;
  for (long w = 0; w < n; w++)
    for (long y = 0; y < n; y++)
      s += f[(x * SP + y) * SP + z] * g[w * SP + x] * h[w * SP + y];
  k[x * SP + z] = s;
}

// lanes over member L (0: w, 1: y): block (32 z, LANES), grid (n/32, n) with x on blockIdx.y.
template <int L, int LANES>
__global__ void sp1(double *__restrict__ k, const double *__restrict__ f, const double *__restrict__ g, const double *__restrict__ h, long n) {
  __shared__ double red[LANES][33];
  long x = blockIdx.y, z = 32 * blockIdx.x + threadIdx.x, lane = threadIdx.y;
  double s = 0;
  if (z < n) {
    if (L == 0) {
      for (long w = lane; w < n; w += LANES)
        for (long y = 0; y < n; y++)
          s += f[(x * SP + y) * SP + z] * g[w * SP + x] * h[w * SP + y];
    } else {
      for (long w = 0; w < n; w++)
        for (long y = lane; y < n; y += LANES)
          s += f[(x * SP + y) * SP + z] * g[w * SP + x] * h[w * SP + y];
    }
  }
  red[lane][threadIdx.x] = s;
  __syncthreads();
  for (int m = LANES / 2; m > 0; m /= 2) {
    if (lane < m) red[lane][threadIdx.x] += red[lane + m][threadIdx.x];
    __syncthreads();
  }
  if (lane == 0 && z < n) k[x * SP + z] = red[0][threadIdx.x];
}


// lanes over w; each thread U w's per y (jammed) and Z z's (cyclic, 32 apart).
template <int LANES, int U, int Z, bool SEP>
__global__ void __launch_bounds__(32 * LANES) spj(double *__restrict__ k, const double *__restrict__ f, const double *__restrict__ g, const double *__restrict__ h, long n) {
  __shared__ double red[LANES][32 * Z + 1];
  long x = blockIdx.y, z0 = 32 * Z * blockIdx.x + threadIdx.x, lane = threadIdx.y;
  double s[SEP ? U : 1][Z];
#pragma unroll
  for (int u = 0; u < (SEP ? U : 1); u++)
#pragma unroll
    for (int p = 0; p < Z; p++) s[u][p] = 0;
  for (long q = 0; q < n; q += LANES * U) {
    double gw[U];
    const double *hr[U];
#pragma unroll
    for (int u = 0; u < U; u++) { long w = q + lane + LANES * u; gw[u] = g[w * SP + x]; hr[u] = h + w * SP; }
#pragma unroll 2
    for (long y = 0; y < n; y++) {
      double fv[Z];
#pragma unroll
      for (int p = 0; p < Z; p++) fv[p] = f[(x * SP + y) * SP + z0 + 32 * p];
#pragma unroll
      for (int u = 0; u < U; u++) {
        double hv = hr[u][y];
#pragma unroll
        for (int p = 0; p < Z; p++) s[SEP ? u : 0][p] += fv[p] * gw[u] * hv;
      }
    }
  }
#pragma unroll
  for (int p = 0; p < Z; p++) {
    double t = s[0][p];
#pragma unroll
    for (int u = 1; u < (SEP ? U : 1); u++) t += s[u][p];
    red[lane][threadIdx.x + 32 * p] = t;
  }
  __syncthreads();
  for (int m = LANES / 2; m > 0; m /= 2) {
    if (lane < m)
#pragma unroll
      for (int p = 0; p < Z; p++) red[lane][threadIdx.x + 32 * p] += red[lane + m][threadIdx.x + 32 * p];
    __syncthreads();
  }
  if (lane == 0)
#pragma unroll
    for (int p = 0; p < Z; p++) k[x * SP + z0 + 32 * p] = red[0][threadIdx.x + 32 * p];
}
#define RUNJ(L, U, Z, SEP) t = timeit([&] { spj<L, U, Z, SEP><<<dim3(n / (32 * Z), n), dim3(32, L)>>>(k, f, g, h, n); }); check("jam L" #L " U" #U " Z" #Z " S" #SEP, t);

constexpr int ZB = 32, YT = 8, WB = 8;
__global__ void __launch_bounds__(ZB * YT)
staged(double *__restrict__ k, const double *__restrict__ f, const double *__restrict__ g, const double *__restrict__ h) {
  __shared__ double fs[SP][ZB];
  __shared__ double hs[WB][SP];
  __shared__ double gs[WB];
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

template <class F>
float timeit(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  f(); f();
  CK(cudaDeviceSynchronize());
  std::vector<float> v;
  for (int r = 0; r < 15; r++) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); v.push_back(ms * 1000);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  long n = SP; size_t n2 = n * n, n3 = n2 * n;
  std::vector<double> hf(n3), hg(n2), hh(n2);
  for (size_t e = 0; e < n3; e++) hf[e] = (double)((e * 2654435761u) % 1000) / 1000.0;
  for (size_t e = 0; e < n2; e++) { hg[e] = 1.0 / (1 + e % 77); hh[e] = 1.0 / (2 + e % 91); }
  double *f, *g, *h, *k, *r;
  CK(cudaMalloc(&f, n3 * 8)); CK(cudaMalloc(&g, n2 * 8)); CK(cudaMalloc(&h, n2 * 8)); CK(cudaMalloc(&k, n2 * 8)); CK(cudaMalloc(&r, n2 * 8));
  CK(cudaMemcpy(f, hf.data(), n3 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(g, hg.data(), n2 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(h, hh.data(), n2 * 8, cudaMemcpyHostToDevice));
  auto S = [&] { staged<<<dim3(SP / ZB, SP), dim3(ZB, YT)>>>(r, f, g, h); };
  S(); CK(cudaDeviceSynchronize());
  std::vector<double> ref(n2), out(n2);
  CK(cudaMemcpy(ref.data(), r, n2 * 8, cudaMemcpyDeviceToHost));
  auto check = [&](const char *name, float us) {
    CK(cudaMemcpy(out.data(), k, n2 * 8, cudaMemcpyDeviceToHost));
    double err = 0;
    for (size_t e = 0; e < n2; e++) err = std::max(err, std::fabs(out[e] - ref[e]) / (std::fabs(ref[e]) + 1e-30));
    printf("%-28s %9.1f us  maxrel %.2e\n", name, us, err);
  };
  printf("%-28s %9.1f us\n", "staged_smem", timeit(S));
  float t;
  t = timeit([&] { sp1<0, 16><<<dim3(n / 32, n), dim3(32, 16)>>>(k, f, g, h, n); }); check("lanes over w, 16", t);
  RUNJ(16, 1, 1, false) RUNJ(16, 2, 1, false) RUNJ(16, 4, 1, false) RUNJ(16, 8, 1, false)
  RUNJ(8, 4, 1, false) RUNJ(32, 4, 1, false) RUNJ(8, 8, 1, false) RUNJ(16, 4, 1, true) RUNJ(8, 4, 1, true)
  RUNJ(16, 2, 2, false) RUNJ(16, 4, 2, false) RUNJ(8, 4, 2, false) RUNJ(8, 4, 4, false) RUNJ(16, 4, 4, false) RUNJ(8, 8, 2, false) RUNJ(32, 4, 2, false) RUNJ(32, 2, 2, false)
  printf("%-28s %9.1f us\n", "staged_smem again", timeit(S));
  return 0;
}
