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
