#include "common/crc32.hpp"

#include <isa-l/crc.h>

#include <climits>

namespace scr {

// ISA-L's crc32_gzip_refl pre- and post-inverts like zlib's crc32, so its
// result chains directly.
uint32_t crc32(const void* data, size_t len, uint32_t crc) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (len > 0) {
    uint64_t n = len > static_cast<size_t>(INT_MAX) ? INT_MAX : len;
    crc = crc32_gzip_refl(crc, p, n);
    p += n;
    len -= n;
  }
  return crc;
}

}  // namespace scr
