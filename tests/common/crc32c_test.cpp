// CRC32C: the ISA-L backed crc32c() must agree with the bitwise reference on
// every length and alignment, chain incrementally, and match published vectors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/crc32c.hpp"

namespace {

std::vector<unsigned char> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<unsigned char> out(n);
  for (auto& b : out) b = static_cast<unsigned char>(rng());
  return out;
}

TEST(Crc32c, CheckVector) {
  const char* s = "123456789";
  EXPECT_EQ(scr::crc32c(s, 9), 0xE3069283u);
  EXPECT_EQ(scr::crc32c_reference(s, 9), 0xE3069283u);
}

// RFC 3720 (iSCSI) appendix B.4 test vectors.
TEST(Crc32c, Rfc3720Vectors) {
  unsigned char buf[32];
  std::memset(buf, 0, sizeof buf);
  EXPECT_EQ(scr::crc32c(buf, 32), 0x8A9136AAu);
  std::memset(buf, 0xFF, sizeof buf);
  EXPECT_EQ(scr::crc32c(buf, 32), 0x62A8AB43u);
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(scr::crc32c(buf, 32), 0x46DD794Eu);
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<unsigned char>(31 - i);
  EXPECT_EQ(scr::crc32c(buf, 32), 0x113FDB5Cu);
}

TEST(Crc32c, EmptyInputKeepsRunningValue) {
  EXPECT_EQ(scr::crc32c(nullptr, 0), 0u);
  EXPECT_EQ(scr::crc32c("", 0, 0xDEADBEEFu), 0xDEADBEEFu);
  EXPECT_EQ(scr::crc32c_reference("", 0, 0xDEADBEEFu), 0xDEADBEEFu);
}

TEST(Crc32c, SingleBytesMatchReference) {
  for (int b = 0; b < 256; ++b) {
    unsigned char c = static_cast<unsigned char>(b);
    ASSERT_EQ(scr::crc32c(&c, 1), scr::crc32c_reference(&c, 1)) << "byte " << b;
  }
}

// Every length up to 1100 (crosses the 8/64/256-byte kernel paths) at every
// alignment 0..15, plus a few large sizes.
TEST(Crc32c, MatchesReferenceAtAllLengthsAndAlignments) {
  auto data = random_bytes(1100 + 16, 1);
  for (size_t align = 0; align < 16; ++align) {
    for (size_t len = 0; len <= 1100; ++len) {
      ASSERT_EQ(scr::crc32c(data.data() + align, len),
                scr::crc32c_reference(data.data() + align, len))
          << "len " << len << " align " << align;
    }
  }
  for (size_t len : {4095u, 4096u, 65537u, 1u << 20}) {
    auto big = random_bytes(len + 3, static_cast<uint32_t>(len));
    EXPECT_EQ(scr::crc32c(big.data() + 3, len), scr::crc32c_reference(big.data() + 3, len))
        << "len " << len;
  }
}

TEST(Crc32c, IncrementalEqualsWholeAtEverySplit) {
  auto data = random_bytes(300, 2);
  uint32_t whole = scr::crc32c(data.data(), data.size());
  EXPECT_EQ(whole, scr::crc32c_reference(data.data(), data.size()));
  for (size_t cut = 0; cut <= data.size(); ++cut) {
    uint32_t first = scr::crc32c(data.data(), cut);
    EXPECT_EQ(scr::crc32c(data.data() + cut, data.size() - cut, first), whole) << "cut " << cut;
    uint32_t rfirst = scr::crc32c_reference(data.data(), cut);
    EXPECT_EQ(scr::crc32c_reference(data.data() + cut, data.size() - cut, rfirst), whole);
  }
  // Many uneven pieces, mixing the two implementations.
  std::mt19937 rng(3);
  uint32_t crc = 0;
  size_t off = 0;
  bool fast = true;
  while (off < data.size()) {
    size_t n = std::min<size_t>(rng() % 17, data.size() - off);
    crc = fast ? scr::crc32c(data.data() + off, n, crc)
               : scr::crc32c_reference(data.data() + off, n, crc);
    fast = !fast;
    off += n;
  }
  EXPECT_EQ(crc, whole);
}

// Checksums of pieces taken separately combine into the whole's, at every
// split of a short message and at lengths with many set bits.
TEST(Crc32c, CombineEqualsWholeAtEverySplit) {
  auto data = random_bytes(300, 4);
  uint32_t whole = scr::crc32c(data.data(), data.size());
  for (size_t cut = 0; cut <= data.size(); ++cut) {
    uint32_t a = scr::crc32c(data.data(), cut);
    uint32_t b = scr::crc32c(data.data() + cut, data.size() - cut);
    EXPECT_EQ(scr::crc32c_combine(a, b, data.size() - cut), whole) << "cut " << cut;
  }
  auto big = random_bytes((1u << 20) + 4093, 5);
  uint32_t big_whole = scr::crc32c(big.data(), big.size());
  for (size_t cut : {size_t{1}, size_t{4096}, size_t{65537}, big.size() - 1}) {
    uint32_t a = scr::crc32c(big.data(), cut);
    uint32_t b = scr::crc32c(big.data() + cut, big.size() - cut);
    EXPECT_EQ(scr::crc32c_combine(a, b, big.size() - cut), big_whole) << "cut " << cut;
  }
  // Three pieces, combined left to right.
  uint32_t a = scr::crc32c(data.data(), 100), b = scr::crc32c(data.data() + 100, 7);
  uint32_t c = scr::crc32c(data.data() + 107, data.size() - 107);
  EXPECT_EQ(scr::crc32c_combine(scr::crc32c_combine(a, b, 7), c, data.size() - 107), whole);
}

// Lengths no test can checksum directly (a petabyte) still combine
// consistently: joining three pieces left first or right first agrees.
TEST(Crc32c, CombineIsAssociativeAtHugeLengths) {
  const uint64_t lengths[] = {1, 4095, uint64_t{1} << 33, (uint64_t{1} << 40) + 12345, (uint64_t{1} << 50) - 1};
  const uint32_t a = 0x12345678u, b = 0x9abcdef0u, c = 0x0f1e2d3cu;
  for (uint64_t nb : lengths)
    for (uint64_t nc : lengths) {
      uint32_t left = scr::crc32c_combine(scr::crc32c_combine(a, b, nb), c, nc);
      uint32_t right = scr::crc32c_combine(a, scr::crc32c_combine(b, c, nc), nb + nc);
      EXPECT_EQ(left, right) << nb << " + " << nc;
    }
  // And a zero-length piece changes nothing.
  EXPECT_EQ(scr::crc32c_combine(a, 0, 0), a);
}

TEST(Crc32c, DetectsEverySingleBitFlip) {
  auto data = random_bytes(64, 4);
  uint32_t good = scr::crc32c(data.data(), data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      data[i] ^= static_cast<unsigned char>(1u << bit);
      EXPECT_NE(scr::crc32c(data.data(), data.size()), good) << "byte " << i << " bit " << bit;
      data[i] ^= static_cast<unsigned char>(1u << bit);
    }
  }
}

}  // namespace
