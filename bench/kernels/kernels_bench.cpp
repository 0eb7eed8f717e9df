// The per-byte kernels of an encode, against memcpy of the same bytes in the
// same run (the machine is noisy: compare the ratio, not the rate), and the
// CRC32C combine that joins checksums of pieces read out of order.
//   build/bench/kernels/kernels_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "common/crc32c.hpp"
#include "redset/buffer.hpp"
#include "redset/kernels/xor.hpp"

namespace {

// A piece buffer as the engines use them (page-aligned, so ISA-L's kernels
// apply), filled with a pattern.
scr::redset::AlignedBuffer bytes(size_t n, uint8_t seed) {
  scr::redset::AlignedBuffer b(n);
  for (size_t i = 0; i < n; ++i) b.data()[i] = static_cast<uint8_t>(i * 131 + seed);
  return b;
}

void Memcpy(benchmark::State& state) {
  auto src = bytes(static_cast<size_t>(state.range(0)), 1);
  auto dst = bytes(src.size(), 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void Crc32c(benchmark::State& state) {
  auto src = bytes(static_cast<size_t>(state.range(0)), 2);
  uint32_t crc = 0;
  for (auto _ : state) benchmark::DoNotOptimize(crc = scr::crc32c(src.data(), src.size(), crc));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void XorInto(benchmark::State& state) {
  auto src = bytes(static_cast<size_t>(state.range(0)), 3);
  auto dst = bytes(src.size(), 4);
  for (auto _ : state) {
    scr::redset::kernels::xor_into(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

// One combine per piece read out of order; its cost grows with log2 of the
// length of the second piece.
void Crc32cCombine(benchmark::State& state) {
  uint32_t crc = 0x12345678u;
  uint64_t len = static_cast<uint64_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(crc = scr::crc32c_combine(crc, 0x9abcdef0u, len));
}

constexpr int64_t kPiece = int64_t{1} << 20;

}  // namespace

BENCHMARK(Memcpy)->Arg(kPiece);
BENCHMARK(Crc32c)->Arg(kPiece);
BENCHMARK(XorInto)->Arg(kPiece);
BENCHMARK(Crc32cCombine)->Arg(4096)->Arg(kPiece)->Arg(int64_t{1} << 40);

BENCHMARK_MAIN();
