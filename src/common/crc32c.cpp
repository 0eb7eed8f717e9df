#include "common/crc32c.hpp"

#include <isa-l/crc.h>

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
// CRC arithmetic over GF(2): appending n zero bits to a message multiplies
// its CRC state by a 32x32 bit matrix; squaring it doubles n.
uint32_t gf2_times(const uint32_t* matrix, uint32_t vec) {
  uint32_t sum = 0;
  for (int i = 0; vec != 0; ++i, vec >>= 1)
    if (vec & 1u) sum ^= matrix[i];
  return sum;
}

void gf2_square(uint32_t* square, const uint32_t* matrix) {
  for (int i = 0; i < 32; ++i) square[i] = gf2_times(matrix, matrix[i]);
}
}  // namespace

uint32_t crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) {
  if (len_b == 0) return crc_a;
  uint32_t even[32], odd[32];
  odd[0] = 0x82F63B78u;  // one zero bit: the reflected polynomial
  for (int i = 1; i < 32; ++i) odd[i] = 1u << (i - 1);
  gf2_square(even, odd);  // two zero bits
  gf2_square(odd, even);  // four zero bits
  // Shift crc_a over len_b zero bytes, one bit of len_b per squaring.
  do {
    gf2_square(even, odd);
    if (len_b & 1u) crc_a = gf2_times(even, crc_a);
    len_b >>= 1;
    if (len_b == 0) break;
    gf2_square(odd, even);
    if (len_b & 1u) crc_a = gf2_times(odd, crc_a);
    len_b >>= 1;
  } while (len_b != 0);
  return crc_a ^ crc_b;
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
