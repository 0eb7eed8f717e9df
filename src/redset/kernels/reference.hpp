// Plain reference versions of the redundancy kernels: byte loops and GF(2^8)
// log/exp tables written from the definitions, sharing no code with ISA-L.
// Used only as the oracle in tests (library scr_redset_reference).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "redset/kernels/gf256.hpp"

namespace scr::redset::kernels::reference {

void xor_gen(uint8_t* dst, std::span<const uint8_t* const> srcs, size_t len);

// Field with polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), generator 2.
uint8_t gf_mul(uint8_t a, uint8_t b);
uint8_t gf_inv(uint8_t a);

// Gauss-Jordan elimination; nullopt when singular.
std::optional<GfMatrix> invert(const GfMatrix& m);

// outs[r][i] = sum over c of coef(r, c) * srcs[c][i].
void encode(const GfMatrix& coef, std::span<const uint8_t* const> srcs,
            std::span<uint8_t* const> outs, size_t len);

}  // namespace scr::redset::kernels::reference
