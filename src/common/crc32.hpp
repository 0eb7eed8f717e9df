// CRC32 as zlib computes it (the gzip polynomial, reflected): the checksum
// of ECP-VeloC's KVTree files and of the file checksums SCR 3.1 records.
// SCR++'s own checksums are CRC32C (crc32c.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace scr {

// crc32("123456789") == 0xCBF43926. Incremental as zlib's:
// crc32(b, nb, crc32(a, na)) == crc32(a followed by b).
uint32_t crc32(const void* data, size_t len, uint32_t crc = 0);

}  // namespace scr
