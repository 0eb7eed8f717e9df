// CRC32C (Castagnoli), computed by ISA-L's crc32_iscsi kernel.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scr {

// Incremental: crc32c(data2, n2, crc32c(data1, n1)) == crc32c(data1+data2).
uint32_t crc32c(const void* data, size_t len, uint32_t crc = 0);
// The CRC32C of A followed by B, from crc32c(A), crc32c(B) and B's length:
// checksums taken of pieces read out of order combine into the whole's.
uint32_t crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);
// Plain bitwise reference used as the oracle in tests.
uint32_t crc32c_reference(const void* data, size_t len, uint32_t crc = 0);

}  // namespace scr
