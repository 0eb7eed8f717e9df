// Piece buffers give their memory back when they go: a checkpoint's encode
// must not leave the process larger than before it, however often it runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "redset/buffer.hpp"

namespace {

using scr::redset::AlignedBuffer;

// This process's resident anonymous memory, in KiB (Linux).
long resident_anon_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("RssAnon:", 0) == 0) return std::stol(line.substr(8));
  return -1;
}

TEST(AlignedBuffer, IsAlignedForTheKernelsAndWritable) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{4095}, size_t{1} << 20}) {
    AlignedBuffer b(n);
    EXPECT_EQ(b.size(), n);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % scr::redset::kSymbolAlign, 0u);
    if (n > 0) {
      std::memset(b.data(), 0xab, n);
      EXPECT_EQ(b.data()[n - 1], 0xab);
    }
  }
  AlignedBuffer moved(AlignedBuffer(4096));
  EXPECT_EQ(moved.size(), 4096u);
}

// An engine that runs past its piece faults at once: the mappings the
// buffers come from are invisible to sanitizers, so the guard pages are what
// catches an overrun in the redundancy code.
TEST(AlignedBufferDeathTest, RunningPastEitherEndFaults) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t n : {size_t{64}, page, size_t{1} << 20}) {
    AlignedBuffer b(n);
    // The data ends at its last page's end; what precedes it there is slack.
    std::ptrdiff_t slack = static_cast<std::ptrdiff_t>((page - n % page) % page);
    volatile uint8_t* p = b.data();
    p[0] = 1;
    p[n - 1] = 1;
    EXPECT_DEATH(p[n] = 1, "") << n << " bytes: a write just past the end went unnoticed";
    EXPECT_DEATH(p[-1 - slack] = 1, "")
        << n << " bytes: a write before the first page went unnoticed";
  }
}

// Three "encodes", each with the buffers of a Reed-Solomon gatherer (16 of
// 1 MiB, every page touched): afterwards the process holds no more than it
// did before the first. From malloc, the second round's buffers came from
// the heap (glibc raises its mmap threshold when the first ones are freed)
// and stayed resident after being freed.
TEST(AlignedBuffer, FreedBuffersLeaveNothingResident) {
  long before = resident_anon_kib();
  ASSERT_GT(before, 0) << "no RssAnon in /proc/self/status";
  for (int round = 0; round < 3; ++round) {
    std::vector<AlignedBuffer> pieces;
    for (int i = 0; i < 16; ++i) {
      pieces.emplace_back(size_t{1} << 20);
      std::memset(pieces.back().data(), i, pieces.back().size());
    }
    EXPECT_GE(resident_anon_kib(), before + 15 * 1024) << "the buffers were not resident while in use";
  }
  EXPECT_LE(resident_anon_kib(), before + 1024) << "freed piece buffers stayed resident";
}

}  // namespace
