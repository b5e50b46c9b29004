// Small host<->device copies (16 KB arrays, as gemver's vectors): how long
// do 8 of them take by each method? CUDA events are not used: host wall time
// around the copies, each method's copies followed by one synchronize, as the
// runtime's profile counts them; median of 51 rounds.
// What the runtime's pinned slots for small copies rest on:
//   nvcc -O2 -std=c++17 -arch=sm_90 -o small small_copies.cu && ./small
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
using clk = std::chrono::steady_clock;
int main() {
  const int arrays = 8;
  for (size_t bytes : {4096ul, 16000ul, 65536ul, 262144ul}) {
    std::vector<char *> host(arrays), dev(arrays);
    for (int a = 0; a < arrays; a++) {
      host[a] = (char *)malloc(bytes);
      memset(host[a], a + 1, bytes);
      CK(cudaMalloc(&dev[a], bytes));
    }
    char *pinned; CK(cudaMallocHost(&pinned, bytes * arrays));
    char *devAll; CK(cudaMalloc(&devAll, bytes * arrays));
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    auto time = [&](const char *name, auto body) {
      std::vector<double> t;
      for (int r = 0; r < 51; r++) {
        auto t0 = clk::now();
        body();
        t.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
      }
      std::sort(t.begin(), t.end());
      printf("%7zu B x %d  %-44s %8.1f us\n", bytes, arrays, name, t[t.size() / 2]);
    };
    time("to device: pageable cudaMemcpy each", [&] {
      for (int a = 0; a < arrays; a++) CK(cudaMemcpy(dev[a], host[a], bytes, cudaMemcpyHostToDevice));
      CK(cudaDeviceSynchronize());
    });
    time("to device: pageable cudaMemcpyAsync each, 1 sync", [&] {
      for (int a = 0; a < arrays; a++) CK(cudaMemcpyAsync(dev[a], host[a], bytes, cudaMemcpyHostToDevice, s));
      CK(cudaStreamSynchronize(s));
    });
    time("to device: memcpy to pinned, async each, 1 sync", [&] {
      for (int a = 0; a < arrays; a++) {
        memcpy(pinned + a * bytes, host[a], bytes);
        CK(cudaMemcpyAsync(dev[a], pinned + a * bytes, bytes, cudaMemcpyHostToDevice, s));
      }
      CK(cudaStreamSynchronize(s));
    });
    time("to device: memcpy to pinned, async each, no sync", [&] {
      for (int a = 0; a < arrays; a++) {
        memcpy(pinned + a * bytes, host[a], bytes);
        CK(cudaMemcpyAsync(dev[a], pinned + a * bytes, bytes, cudaMemcpyHostToDevice, s));
      }
    });
    CK(cudaStreamSynchronize(s));
    time("to device: pack pinned, 1 DMA + 8 D2D, 1 sync", [&] {
      for (int a = 0; a < arrays; a++) memcpy(pinned + a * bytes, host[a], bytes);
      CK(cudaMemcpyAsync(devAll, pinned, bytes * arrays, cudaMemcpyHostToDevice, s));
      for (int a = 0; a < arrays; a++) CK(cudaMemcpyAsync(dev[a], devAll + a * bytes, bytes, cudaMemcpyDeviceToDevice, s));
      CK(cudaStreamSynchronize(s));
    });
    time("to host: pageable cudaMemcpy each", [&] {
      for (int a = 0; a < arrays; a++) CK(cudaMemcpy(host[a], dev[a], bytes, cudaMemcpyDeviceToHost));
    });
    time("to host: async to pinned each, 1 sync, memcpy out", [&] {
      for (int a = 0; a < arrays; a++) CK(cudaMemcpyAsync(pinned + a * bytes, dev[a], bytes, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
      for (int a = 0; a < arrays; a++) memcpy(host[a], pinned + a * bytes, bytes);
    });
    for (int a = 0; a < arrays; a++) { free(host[a]); CK(cudaFree(dev[a])); }
    CK(cudaFreeHost(pinned)); CK(cudaFree(devAll)); CK(cudaStreamDestroy(s));
  }
  return 0;
}
