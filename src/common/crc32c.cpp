#include "common/crc32c.hpp"

#include <isa-l/crc.h>

#include <array>
#include <climits>

namespace scr {

// ISA-L's crc32_iscsi takes the running value un-inverted and returns it
// un-inverted; the standard CRC32C pre- and post-inverts. We expose the
// standard definition so values match other tools (e.g. crc32c of "123456789"
// is 0xE3069283).
uint32_t crc32c(const void* data, size_t len, uint32_t crc) {
  auto* p = static_cast<unsigned char*>(const_cast<void*>(data));
  uint32_t state = ~crc;
  while (len > 0) {
    int n = len > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(len);
    state = crc32_iscsi(p, n, state);
    p += n;
    len -= static_cast<size_t>(n);
  }
  return ~state;
}

namespace {
// CRC arithmetic in GF(2)[x] modulo the CRC32C polynomial, in the CRC's
// reflected bit order: bit 31 holds the coefficient of x^0, bit 0 that of
// x^31. Appending n zero bits to a message multiplies its CRC by x^n, so a
// combine is one multiplication by x^(8 len) built from the powers x^(2^k):
// about log2(len) products of 32 steps each (the 32x32 matrix squarings
// this replaces cost a thousand steps per bit of the length, and showed in
// profiles of encodes that combine a checksum per piece).
constexpr uint32_t kPoly = 0x82F63B78u;  // x^32 + ... reflected, x^32 implied
constexpr uint32_t kOne = 1u << 31;      // x^0

uint32_t multiply_mod(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t bit = kOne; bit != 0; bit >>= 1) {
    if (a & bit) product ^= b;
    b = (b & 1u) ? (b >> 1) ^ kPoly : b >> 1;  // b *= x
  }
  return product;
}

// x^(2^k) mod P for every k a 64-bit length in bits can need.
const std::array<uint32_t, 67>& powers_of_x() {
  static const std::array<uint32_t, 67> powers = [] {
    std::array<uint32_t, 67> p{};
    p[0] = kOne >> 1;  // x^1
    for (size_t k = 1; k < p.size(); ++k) p[k] = multiply_mod(p[k - 1], p[k - 1]);
    return p;
  }();
  return powers;
}
}  // namespace

uint32_t crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) {
  if (len_b == 0) return crc_a;
  const auto& powers = powers_of_x();
  uint32_t shift = kOne;  // x^(8 len_b), one bit of len_b at a time (8 = 2^3)
  for (size_t k = 3; len_b != 0; len_b >>= 1, ++k)
    if (len_b & 1u) shift = multiply_mod(powers[k], shift);
  return multiply_mod(shift, crc_a) ^ crc_b;
}

uint32_t crc32c_reference(const void* data, size_t len, uint32_t crc) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint32_t state = ~crc;
  for (size_t i = 0; i < len; ++i) {
    state ^= p[i];
    for (int b = 0; b < 8; ++b) state = (state >> 1) ^ (0x82F63B78u & (0u - (state & 1u)));
  }
  return ~state;
}

}  // namespace scr
