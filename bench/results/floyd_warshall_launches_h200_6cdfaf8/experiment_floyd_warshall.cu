// floyd-warshall at PolyBench LARGE (n = 2800, int): launches per k.
//   one:  one kernel per k over all (i, j) (legal only because row and
//         column k do not change in iteration k when path[k][k] >= 0)
//   two:  the pieces that write row k and column k first (they read only
//         path[k][k] and themselves), then every other (i, j): 2 per k
//   nine: one launch per piece of the index-set split (i <, =, > k times
//         j <, =, > k), as polycuda prints it, 9 per k
// Prints each variant's median of 5 (CUDA events, whole sweep) and whether
// its result equals the sequential one.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define N 2800
__global__ void full(int *p, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) { int a = p[i * n + j], b = p[i * n + k] + p[k * n + j]; p[i * n + j] = a < b ? a : b; }
}
__global__ void rowcol(int *p, int k, int n) {  // row k and column k (their own values only)
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int kk = p[k * n + k];
  if (t < n && t != k) {
    int a = p[k * n + t], b = kk + p[k * n + t]; p[k * n + t] = a < b ? a : b;
    a = p[t * n + k]; b = p[t * n + k] + kk; p[t * n + k] = a < b ? a : b;
  }
  if (t == k) { int a = kk, b = kk + kk; p[k * n + k] = a < b ? a : b; }
}
__global__ void rest(int *p, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n && i != k && j != k) { int a = p[i * n + j], b = p[i * n + k] + p[k * n + j]; p[i * n + j] = a < b ? a : b; }
}
// A piece: i in [i0, i1), j in [j0, j1).
__global__ void piece(int *p, int k, int n, int i0, int i1, int j0, int j1) {
  int j = j0 + blockIdx.x * blockDim.x + threadIdx.x, i = i0 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < i1 && j < j1) { int a = p[i * n + j], b = p[i * n + k] + p[k * n + j]; p[i * n + j] = a < b ? a : b; }
}
static void init(std::vector<int> &p) {
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
    p[i * N + j] = i * j % 7 + 1;
    if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0) p[i * N + j] = 999;
  }
}
int main() {
  std::vector<int> ref(N * N), h(N * N);
  init(ref);
  for (int k = 0; k < N; k++) for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
    int b = ref[i * N + k] + ref[k * N + j]; if (b < ref[i * N + j]) ref[i * N + j] = b; }
  int *d; cudaMalloc(&d, N * N * sizeof(int));
  dim3 blk(32, 8), grd((N + 31) / 32, (N + 7) / 8);
  const char *names[] = {"one", "two", "nine"};
  for (int v = 0; v < 3; v++) {
    std::vector<float> ms;
    bool ok = true;
    for (int r = 0; r < 5; r++) {
      init(h); cudaMemcpy(d, h.data(), N * N * sizeof(int), cudaMemcpyHostToDevice);
      cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); cudaEventRecord(a);
      for (int k = 0; k < N; k++) {
        if (v == 0) full<<<grd, blk>>>(d, k, N);
        else if (v == 1) { rowcol<<<(N + 255) / 256, 256>>>(d, k, N); rest<<<grd, blk>>>(d, k, N); }
        else {
          int lo[3] = {0, k, k + 1}, hi[3] = {k, k + 1, N};
          for (int x = 0; x < 3; x++) for (int y = 0; y < 3; y++) {
            int ni = hi[x] - lo[x], nj = hi[y] - lo[y];
            if (ni <= 0 || nj <= 0) continue;
            dim3 g((nj + 31) / 32, (ni + 7) / 8);
            piece<<<g, blk>>>(d, k, N, lo[x], hi[x], lo[y], hi[y]);
          }
        }
      }
      cudaEventRecord(b); cudaEventSynchronize(b); float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t);
      cudaMemcpy(h.data(), d, N * N * sizeof(int), cudaMemcpyDeviceToHost);
      ok = ok && h == ref;
    }
    std::sort(ms.begin(), ms.end());
    printf("%s: median %.2f ms (min %.2f), %s\n", names[v], ms[2], ms[0], ok ? "equal" : "DIFFERENT");
  }
  printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
