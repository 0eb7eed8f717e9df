// XOR kernels for the XOR scheme: buffers in, buffers out. No files, no MPI.
// Backed by ISA-L xor_gen; the plain version in reference.hpp is the oracle
// the tests compare against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace scr::redset::kernels {

// dst = srcs[0] ^ srcs[1] ^ ... over len bytes. dst may be one of srcs (that is
// how an accumulator is updated in place). No sources clears dst.
void xor_gen(uint8_t* dst, std::span<const uint8_t* const> srcs, size_t len);

// dst ^= src.
void xor_into(uint8_t* dst, const uint8_t* src, size_t len);

}  // namespace scr::redset::kernels
