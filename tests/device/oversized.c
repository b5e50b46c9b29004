/* An array larger than any GPU's memory (204.8 GB): the translated program
 * must stop at the device allocation with a message naming the scop and a
 * non-zero exit, not crash or print wrong results. The host array is mapped
 * without reserving memory and is never touched, so the host side works on
 * any machine. Run by tests/device/run.sh on the GPU host. */
#include <stdio.h>
#include <sys/mman.h>

#define N 160000

void scale(int n, double A[N][N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = 2.0 * A[i][j];
#pragma endscop
}

int main(void) {
  size_t bytes = (size_t)N * N * sizeof(double);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  scale(N, (double (*)[N])p);
  printf("unexpected: the scop ran\n");
  return 0;
}
