//===- StagingPoolTest.cpp - The CUDA runtime's staging pool, without a GPU ===//
//
// runtime/polycuda_staging.h against cuda_stand_in/cuda_runtime_api.h: boxes
// of random 1-D, 2-D and 3-D arrays copied both ways through the pool with 0
// to 8 workers must equal a plain copy of the box and leave every other byte
// alone; a failing copy must be reported, not hang the pool.
//
//===----------------------------------------------------------------------===//
#include "cuda_runtime_api.h"
#include "polycuda_staging.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace polycuda::staging;

namespace {

struct Box {
  int rank;
  long long extents[3], lower[3], upper[3];
};

Box randomBox(std::mt19937 &random, size_t maxBytes) {
  Box b;
  b.rank = 1 + random() % 3;
  size_t left = maxBytes;
  for (int d = b.rank - 1; d >= 0; --d) {
    size_t cap = d == 0 ? left : std::min<size_t>(left, 1 + random() % 5000);
    b.extents[d] = 1 + random() % std::max<size_t>(1, cap);
    left = std::max<size_t>(1, left / b.extents[d]);
    b.lower[d] = random() % b.extents[d];
    b.upper[d] = b.lower[d] + random() % (b.extents[d] - b.lower[d]);
  }
  // Whole trailing dimensions now and then: one slab of whole rows.
  if (random() % 3 == 0)
    for (int d = 1; d < b.rank; ++d)
      b.lower[d] = 0, b.upper[d] = b.extents[d] - 1;
  return b;
}

/// A pool that lives until the process exits, as the runtime's does (its
/// workers never stop), and stays reachable for the leak checker.
StagingPool &newPool() {
  static std::vector<StagingPool *> *pools = new std::vector<StagingPool *>;
  pools->push_back(new StagingPool);
  return *pools->back();
}

size_t totalBytes(const Box &b) {
  size_t n = 1;
  for (int d = 0; d < b.rank; ++d)
    n *= (size_t)b.extents[d];
  return n;
}

void fill(std::vector<char> &v, unsigned seed) {
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = (char)(seed = seed * 1103515245u + 12345u) ^ (char)(i >> 11);
}

/// Copies random boxes both ways through a pool of `workers` threads and
/// compares each with the box copied slab by slab.
void copyRandomBoxes(StagingPool &pool, unsigned seed, int copies) {
  std::mt19937 random(seed);
  for (int n = 0; n < copies; ++n) {
    Box box = randomBox(random, (size_t)6 << 20);
    size_t bytes = totalBytes(box);
    std::vector<char> host(bytes), device(bytes);
    fill(host, random());
    fill(device, random());
    bool toDevice = random() % 2;
    std::vector<Slab> slabs =
        slabsOf(1, box.rank, box.extents, box.lower, box.upper);
    std::vector<char> expected = toDevice ? device : host;
    const std::vector<char> &source = toDevice ? host : device;
    for (const Slab &s : slabs)
      for (size_t r = 0; r < s.rows; ++r)
        memcpy(&expected[s.offset + r * s.pitch],
               &source[s.offset + r * s.pitch], s.width);
    std::vector<Chunk> chunks = chunksOf(slabs);
    std::vector<Piece> pieces = piecesOf(chunks);
    const char *operation = nullptr;
    ASSERT_EQ(pool.run(toDevice, device.data(), host.data(), chunks, pieces,
                       operation),
              cudaSuccess);
    // A copy to the device returns with its last DMAs in flight.
    ASSERT_EQ(pool.synchronize(), cudaSuccess);
    const std::vector<char> &result = toDevice ? device : host;
    ASSERT_TRUE(result == expected)
        << "copy " << n << " (" << (toDevice ? "to the device" : "to the host")
        << ", rank " << box.rank << ", " << chunks.size() << " chunks, "
        << pieces.size() << " pieces)";
  }
}

// Half the cores (2 to 8), and never a worker on every core: the caller,
// which issues the DMAs, keeps one.
TEST(StagingPool, WorkersLeaveTheCallerACore) {
  EXPECT_EQ(workerCount(16), 8u);
  EXPECT_EQ(workerCount(128), 8u);
  EXPECT_EQ(workerCount(8), 4u);
  EXPECT_EQ(workerCount(4), 2u);
  EXPECT_EQ(workerCount(2), 1u);
  EXPECT_EQ(workerCount(1), 0u);
  EXPECT_EQ(workerCount(0), 2u); // cores not known
}

TEST(StagingPool, ChunksAndPiecesCoverTheBoxOnce) {
  std::mt19937 random(7);
  for (int n = 0; n < 200; ++n) {
    Box box = randomBox(random, (size_t)64 << 20);
    std::vector<Slab> slabs =
        slabsOf(8, box.rank, box.extents, box.lower, box.upper);
    std::vector<Chunk> chunks = chunksOf(slabs);
    std::vector<Piece> pieces = piecesOf(chunks);
    size_t chunkBytes = 0, pieceBytes = 0;
    for (const Chunk &c : chunks) {
      EXPECT_LE(c.width * c.rows, kBufferBytes);
      chunkBytes += c.width * c.rows;
    }
    for (size_t i = 0; i < pieces.size(); ++i) {
      const Piece &p = pieces[i];
      ASSERT_LT(p.chunk, chunks.size());
      if (i > 0) // in chunk order, as the pool's protocol needs
        EXPECT_GE(p.chunk, pieces[i - 1].chunk);
      EXPECT_LE(p.x + p.width, chunks[p.chunk].width);
      EXPECT_LE(p.row + p.rows, chunks[p.chunk].rows);
      pieceBytes += p.width * p.rows;
    }
    EXPECT_EQ(chunkBytes, bytesOf(slabs));
    EXPECT_EQ(pieceBytes, bytesOf(slabs));
  }
}

void copyRandomBoxes(unsigned workers, unsigned seed, int copies) {
  StagingPool &pool = newPool();
  ASSERT_TRUE(pool.create(workers));
  copyRandomBoxes(pool, seed, copies);
}

TEST(StagingPool, CallerAloneCopiesRandomBoxes) { copyRandomBoxes(0, 1, 40); }
TEST(StagingPool, OneWorkerCopiesRandomBoxes) { copyRandomBoxes(1, 2, 40); }
TEST(StagingPool, ThreeWorkersCopyRandomBoxes) { copyRandomBoxes(3, 3, 40); }
TEST(StagingPool, EightWorkersCopyRandomBoxes) { copyRandomBoxes(8, 4, 25); }

// Copies to the device above kStreamingMaxBytes pack with memcpy.
TEST(StagingPool, LargeCopyToTheDevicePacksWithMemcpy) {
  StagingPool &pool = newPool();
  ASSERT_TRUE(pool.create(4));
  size_t bytes = kStreamingMaxBytes + (3u << 20) + 13;
  std::vector<char> host(bytes), device(bytes);
  fill(host, 21);
  fill(device, 22);
  long long extent = (long long)bytes, lower = 5, upper = extent - 7;
  std::vector<Slab> slabs = slabsOf(1, 1, &extent, &lower, &upper);
  std::vector<char> expected = device;
  memcpy(&expected[5], &host[5], bytes - 11);
  std::vector<Chunk> chunks = chunksOf(slabs);
  std::vector<Piece> pieces = piecesOf(chunks);
  const char *operation = nullptr;
  ASSERT_EQ(pool.run(true, device.data(), host.data(), chunks, pieces,
                     operation),
            cudaSuccess);
  ASSERT_EQ(pool.synchronize(), cudaSuccess);
  ASSERT_TRUE(device == expected);
}

// The runtime prepares its pool on a thread of its own when the program
// starts and attaches it later, on the thread that copies.
TEST(StagingPool, PreparedOnAnotherThreadThenAttached) {
  StagingPool &pool = newPool();
  bool prepared = false;
  std::thread([&] { prepared = pool.prepare(4); }).join();
  ASSERT_TRUE(prepared);
  ASSERT_TRUE(pool.attach());
  copyRandomBoxes(pool, 5, 20);
}

// warm() wakes workers that went to sleep (a scop's start, after the
// program was busy elsewhere) and keeps them spinning; warmed, asleep again
// and warmed while spinning, the pool copies as before.
TEST(StagingPool, WarmedWorkersCopy) {
  StagingPool &pool = newPool();
  ASSERT_TRUE(pool.create(4));
  for (int round = 0; round < 3; ++round) {
    // Idle past kSpinBeforeSleep: the workers sleep.
    std::this_thread::sleep_for(kSpinBeforeSleep * 3);
    pool.warm();
    if (round == 1)
      pool.warm(); // while spinning
    copyRandomBoxes(pool, 30 + round, 5);
  }
}

// Copies to the device return before their last DMAs complete: the next
// copies, packed meanwhile, must wait for each buffer's DMA, and a copy to
// the host in between must see every byte of the earlier ones.
TEST(StagingPool, BackToBackCopiesShareTheRing) {
  StagingPool &pool = newPool();
  ASSERT_TRUE(pool.create(3));
  std::mt19937 random(9);
  for (int round = 0; round < 6; ++round) {
    std::vector<std::vector<char>> hosts, devices;
    for (int a = 0; a < 4; ++a) {
      size_t bytes = (size_t)(1 + random() % 6) << 20;
      hosts.emplace_back(bytes);
      devices.emplace_back(bytes);
      fill(hosts.back(), random());
      fill(devices.back(), random());
    }
    for (int a = 0; a < 4; ++a) {
      long long extent = (long long)hosts[a].size(), lower = 0,
                upper = extent - 1;
      std::vector<Slab> slabs = slabsOf(1, 1, &extent, &lower, &upper);
      std::vector<Chunk> chunks = chunksOf(slabs);
      std::vector<Piece> pieces = piecesOf(chunks);
      const char *operation = nullptr;
      ASSERT_EQ(pool.run(true, devices[a].data(), hosts[a].data(), chunks,
                         pieces, operation),
                cudaSuccess);
      if (a == 2) {
        // Back to the host: ordered after the copies to the device.
        std::vector<char> back(hosts[1].size());
        long long e1 = (long long)back.size(), l1 = 0, u1 = e1 - 1;
        std::vector<Slab> s1 = slabsOf(1, 1, &e1, &l1, &u1);
        std::vector<Chunk> c1 = chunksOf(s1);
        std::vector<Piece> p1 = piecesOf(c1);
        ASSERT_EQ(pool.run(false, devices[1].data(), back.data(), c1, p1,
                           operation),
                  cudaSuccess);
        ASSERT_TRUE(back == hosts[1]) << "round " << round;
      }
    }
    ASSERT_EQ(pool.synchronize(), cudaSuccess);
    for (int a = 0; a < 4; ++a)
      ASSERT_TRUE(devices[a] == hosts[a]) << "round " << round << ", array " << a;
  }
}

// Packing stores past the cache: every alignment of source and destination
// and every length around the vector loop's edges copies exactly the bytes.
TEST(StagingPool, StreamingCopyEqualsMemcpy) {
  std::vector<char> src(4096), dst(4096), expected(4096);
  fill(src, 11);
  for (size_t from = 0; from < 17; ++from)
    for (size_t to = 0; to < 17; ++to)
      for (size_t n : {0, 1, 15, 16, 255, 256, 271, 319, 320, 1000, 3000}) {
        fill(dst, 3);
        expected = dst;
        memcpy(&expected[to], &src[from], n);
        copyStreaming(&dst[to], &src[from], n);
        finishCopies();
        ASSERT_TRUE(dst == expected)
            << "from " << from << ", to " << to << ", " << n << " bytes";
      }
}

TEST(StagingPool, FailedCopyIsReported) {
  StagingPool &pool = newPool();
  ASSERT_TRUE(pool.create(4));
  for (bool toDevice : {true, false}) {
    // Copies queued before the failure still run later: the arrays outlive
    // the test, as the runtime exits at a failure instead.
    static std::vector<char> host(24 << 20), device(24 << 20);
    long long extent = (long long)host.size(), lower = 0,
              upper = extent - 1;
    std::vector<Slab> slabs = slabsOf(1, 1, &extent, &lower, &upper);
    std::vector<Chunk> chunks = chunksOf(slabs);
    std::vector<Piece> pieces = piecesOf(chunks);
    ASSERT_GE(chunks.size(), 3u);
    cudaStandInFailCopy(3);
    const char *operation = nullptr;
    EXPECT_EQ(pool.run(toDevice, device.data(), host.data(), chunks, pieces,
                       operation),
              cudaErrorInvalidValue);
    ASSERT_NE(operation, nullptr);
    EXPECT_NE(std::string(operation).find("staged"), std::string::npos)
        << operation;
    cudaStandInFailCopy(0);
  }
}

} // namespace

// A box reaching past a row of its array (isl's coalescing can widen one by
// a column) is clamped to the array: it must never reach past the host
// array's end nor wrap into the next row.
TEST(StagingPool, BoxIsClampedToTheArray) {
  // A [19][17] array of doubles, box rows 0..18, columns 0..17.
  long long extents[] = {19, 17}, lower[] = {0, 0}, upper[] = {18, 17};
  std::vector<Slab> slabs = slabsOf(8, 2, extents, lower, upper);
  // Columns 0..16 of every row are the whole array: one range.
  ASSERT_EQ(slabs.size(), 1u);
  EXPECT_EQ(slabs[0].offset, 0u);
  EXPECT_EQ(slabs[0].width * slabs[0].rows, 19u * 17u * 8u);

  // Columns 5..20 of rows 2..3: columns 5..16, 12 elements a row.
  long long lower2[] = {2, 5}, upper2[] = {3, 20};
  slabs = slabsOf(8, 2, extents, lower2, upper2);
  ASSERT_EQ(slabs.size(), 1u);
  EXPECT_EQ(slabs[0].offset, (2u * 17u + 5u) * 8u);
  EXPECT_EQ(slabs[0].pitch, 17u * 8u);
  EXPECT_EQ(slabs[0].width, 12u * 8u);
  EXPECT_EQ(slabs[0].rows, 2u);

  // A negative lower bound starts at 0; a box entirely past a row's end
  // copies nothing.
  long long lower3[] = {-1, -3}, upper3[] = {0, 1};
  slabs = slabsOf(8, 2, extents, lower3, upper3);
  ASSERT_EQ(slabs.size(), 1u);
  EXPECT_EQ(slabs[0].offset, 0u);
  EXPECT_EQ(slabs[0].width, 2u * 8u);
  long long lower4[] = {0, 17}, upper4[] = {3, 19};
  EXPECT_TRUE(slabsOf(8, 2, extents, lower4, upper4).empty());
}
