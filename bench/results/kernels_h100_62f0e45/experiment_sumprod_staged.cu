// Experiment: sumprod's lane kernel (as generated) against variants.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s line %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
#define SP 128

template <int LANES, bool STAGE_F>
__global__ void lanes(double *__restrict__ k, const double *__restrict__ f, const double *__restrict__ g, const double *__restrict__ h, long n) {
  const long b0 = blockIdx.z, b1 = blockIdx.x, t1 = threadIdx.x, t2 = threadIdx.y;
  double red = 0;
  __shared__ double part[32 * LANES];
  __shared__ double fs[STAGE_F ? SP * 32 : 1];
  if (STAGE_F) {
    for (long y = t2; y < n; y += LANES) fs[y * 32 + t1] = f[(b0 * SP + y) * SP + 32 * b1 + t1];
    __syncthreads();
  }
  if (32 * b1 + t1 < n && b0 < n) {
    for (long w = t2; w < n; w += LANES)
      for (long y = 0; y < n; y++)
        red += (STAGE_F ? fs[y * 32 + t1] : f[(b0 * SP + y) * SP + 32 * b1 + t1]) * g[w * SP + b0] * h[w * SP + y];
  }
  part[t1 + 32 * t2] = red;
  __syncthreads();
  for (int half = LANES / 2; half > 0; half /= 2) {
    if (t2 < half) part[t1 + 32 * t2] += part[t1 + 32 * t2 + 32 * half];
    __syncthreads();
  }
  if (t2 == 0 && 32 * b1 + t1 < n) k[b0 * SP + 32 * b1 + t1] = part[t1];
}

template <class F>
float timeit(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  f(); f(); CK(cudaDeviceSynchronize());
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
  double *f, *g, *h, *k;
  CK(cudaMalloc(&f, n3 * 8)); CK(cudaMalloc(&g, n2 * 8)); CK(cudaMalloc(&h, n2 * 8)); CK(cudaMalloc(&k, n2 * 8));
  CK(cudaMemcpy(f, hf.data(), n3 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(g, hg.data(), n2 * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(h, hh.data(), n2 * 8, cudaMemcpyHostToDevice));
  std::vector<double> ref(n2), out(n2);
  lanes<16, false><<<dim3(n / 32, 1, n), dim3(32, 16, 1)>>>(k, f, g, h, n);
  CK(cudaMemcpy(ref.data(), k, n2 * 8, cudaMemcpyDeviceToHost));
  auto report = [&](const char *name, float us) {
    CK(cudaMemcpy(out.data(), k, n2 * 8, cudaMemcpyDeviceToHost));
    double err = 0;
    for (size_t e = 0; e < n2; e++) err = std::max(err, std::fabs(out[e] - ref[e]) / (std::fabs(ref[e]) + 1e-30));
    printf("%-28s %8.1f us  maxrel %.1e\n", name, us, err);
  };
  report("16 lanes (generated)", timeit([&] { lanes<16, false><<<dim3(n / 32, 1, n), dim3(32, 16, 1)>>>(k, f, g, h, n); }));
  report("32 lanes", timeit([&] { lanes<32, false><<<dim3(n / 32, 1, n), dim3(32, 32, 1)>>>(k, f, g, h, n); }));
  report("8 lanes", timeit([&] { lanes<8, false><<<dim3(n / 32, 1, n), dim3(32, 8, 1)>>>(k, f, g, h, n); }));
  report("16 lanes, f staged", timeit([&] { lanes<16, true><<<dim3(n / 32, 1, n), dim3(32, 16, 1)>>>(k, f, g, h, n); }));
  report("32 lanes, f staged", timeit([&] { lanes<32, true><<<dim3(n / 32, 1, n), dim3(32, 32, 1)>>>(k, f, g, h, n); }));
  report("8 lanes, f staged", timeit([&] { lanes<8, true><<<dim3(n / 32, 1, n), dim3(32, 8, 1)>>>(k, f, g, h, n); }));
  return 0;
}
