// Page-fault cost of writing into untouched malloc'ed memory vs
// MADV_POPULATE_WRITE, 1 and T threads.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef struct { char *p; size_t n; int mode; int rc; } Job;
static void *work(void *a) {
  Job *j = a;
  if (j->mode == 0) memset(j->p, 1, j->n);
  else {
    size_t page = 4096; char *b = (char *)((size_t)j->p & ~(page - 1));
    size_t n = j->n + (j->p - b);
    j->rc = madvise(b, n, MADV_POPULATE_WRITE);
  }
  return 0;
}
static double run(size_t bytes, int threads, int mode, int *rc) {
  char *p = malloc(bytes);
  double t0 = now();
  pthread_t th[64]; Job jobs[64];
  size_t per = (bytes / threads) & ~(size_t)4095;
  for (int i = 0; i < threads; ++i) {
    jobs[i].p = p + i * per; jobs[i].n = i == threads - 1 ? bytes - i * per : per; jobs[i].mode = mode; jobs[i].rc = 0;
    pthread_create(&th[i], 0, work, &jobs[i]);
  }
  for (int i = 0; i < threads; ++i) { pthread_join(th[i], 0); if (jobs[i].rc) *rc = jobs[i].rc; }
  double t = now() - t0;
  if (mode == 1) { double t1 = now(); memset(p, 2, bytes); t = -(now() - t1) + t; /* unused */ (void)t1; }
  free(p);
  return t;
}
int main(void) {
  size_t sizes[] = {8, 32, 128, 512};
  int ths[] = {1, 4, 8, 16};
  printf("mb,threads,method,GBps,rc\n");
  for (int s = 0; s < 4; ++s)
    for (int ti = 0; ti < 4; ++ti)
      for (int mode = 0; mode < 2; ++mode) {
        size_t b = sizes[s] << 20; double best = 1e9; int rc = 0;
        for (int r = 0; r < 3; ++r) {
          char *p = mmap(0, b, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); double t0 = now();
          pthread_t th[64]; Job jobs[64]; int T = ths[ti];
          size_t per = (b / T) & ~(size_t)4095;
          for (int i = 0; i < T; ++i) { jobs[i].p = p + i * per; jobs[i].n = i == T - 1 ? b - i * per : per; jobs[i].mode = mode; jobs[i].rc = 0; pthread_create(&th[i], 0, work, &jobs[i]); }
          for (int i = 0; i < T; ++i) { pthread_join(th[i], 0); if (jobs[i].rc) rc = jobs[i].rc; }
          double t = now() - t0; if (t < best) best = t;
          munmap(p, b);
        }
        printf("%zu,%d,%s,%.2f,%d\n", sizes[s], ths[ti], mode ? "populate" : "memset", b / best / 1e9, rc);
      }
  return 0;
}
