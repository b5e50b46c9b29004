//===- PrefaultTest.cpp - Faulting output pages in ahead, without a GPU ---===//
//
// runtime/polycuda_prefault.h: the pages of a queued range end up in
// memory with every byte as it was, also while another thread writes them;
// cancelled and freed ranges neither hang nor crash the threads.
//
//===----------------------------------------------------------------------===//
#include "polycuda_prefault.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

using polycuda::Prefaulter;

namespace {

constexpr size_t kBytes = (size_t)24 << 20;

char *freshMemory(size_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : (char *)p;
}

/// Pages of [p, p + bytes) in memory (mincore).
size_t residentPages(char *p, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> in((bytes + page - 1) / page);
  if (mincore(p, bytes, in.data()) != 0)
    return 0;
  size_t n = 0;
  for (unsigned char r : in)
    n += r & 1;
  return n;
}

unsigned char pattern(size_t i) { return (unsigned char)(i * 7 + 3); }

TEST(Prefault, PagesComeInWithTheirBytesUnchanged) {
  Prefaulter &prefaulter = *new Prefaulter(3); // never destroyed
  char *p = freshMemory(kBytes);
  ASSERT_NE(p, nullptr);
  // Some pages written before (their bytes must stay), most untouched.
  for (size_t i = 0; i < kBytes; i += 5 * 65536)
    for (size_t j = i; j < i + 4096 && j < kBytes; ++j)
      p[j] = (char)pattern(j);
  // An unaligned range inside the mapping, as an array's box would be.
  prefaulter.add((uintptr_t)p + 100, (uintptr_t)p + kBytes - 100);
  prefaulter.wait();
  if (prefaulter.supported())
    EXPECT_EQ(residentPages(p, kBytes), kBytes / (size_t)sysconf(_SC_PAGESIZE));
  for (size_t j = 0; j < kBytes; ++j) {
    bool written = j % (5 * 65536) < 4096;
    ASSERT_EQ((unsigned char)p[j], written ? pattern(j) : 0) << "byte " << j;
  }
  munmap(p, kBytes);
}

// The copy to the host may reach pages while they are being faulted in.
TEST(Prefault, ConcurrentWritesSurvive) {
  Prefaulter &prefaulter = *new Prefaulter(4); // never destroyed
  char *p = freshMemory(kBytes);
  ASSERT_NE(p, nullptr);
  prefaulter.add((uintptr_t)p, (uintptr_t)p + kBytes);
  std::thread writer([p] {
    for (size_t j = kBytes; j-- > 0;)
      p[j] = (char)pattern(j);
  });
  writer.join();
  prefaulter.wait();
  for (size_t j = 0; j < kBytes; ++j)
    ASSERT_EQ((unsigned char)p[j], pattern(j)) << "byte " << j;
  munmap(p, kBytes);
}

TEST(Prefault, CancelledAndFreedRangesAreHarmless) {
  Prefaulter &prefaulter = *new Prefaulter(2); // never destroyed
  char *p = freshMemory(kBytes);
  ASSERT_NE(p, nullptr);
  prefaulter.add((uintptr_t)p, (uintptr_t)p + kBytes);
  prefaulter.cancel();
  prefaulter.wait();
  // A range freed before its pieces ran (the program freed the array).
  prefaulter.add((uintptr_t)p, (uintptr_t)p + kBytes);
  munmap(p, kBytes);
  prefaulter.wait();
  // The threads still serve new ranges.
  char *q = freshMemory(kBytes);
  ASSERT_NE(q, nullptr);
  prefaulter.add((uintptr_t)q, (uintptr_t)q + kBytes);
  prefaulter.wait();
  if (prefaulter.supported())
    EXPECT_EQ(residentPages(q, kBytes), kBytes / (size_t)sysconf(_SC_PAGESIZE));
  munmap(q, kBytes);
}

} // namespace
