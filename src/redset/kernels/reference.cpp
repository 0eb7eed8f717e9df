#include "redset/kernels/reference.hpp"

#include <array>
#include <utility>

namespace scr::redset::kernels::reference {
namespace {

struct LogTables {
  std::array<uint8_t, 512> exp{};
  std::array<int, 256> log{};
  LogTables() {
    unsigned x = 1;
    for (int i = 0; i < 255; ++i) {
      exp[i] = static_cast<uint8_t>(x);
      log[x] = i;
      x <<= 1;
      if (x & 0x100) x ^= 0x11d;
    }
    for (int i = 255; i < 512; ++i) exp[i] = exp[i - 255];
  }
};

const LogTables& tables() {
  static const LogTables t;
  return t;
}

}  // namespace

void xor_gen(uint8_t* dst, std::span<const uint8_t* const> srcs, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    uint8_t v = 0;
    for (const uint8_t* s : srcs) v ^= s[i];
    dst[i] = v;
  }
}

uint8_t gf_mul(uint8_t a, uint8_t b) {
  if (a == 0 || b == 0) return 0;
  return tables().exp[tables().log[a] + tables().log[b]];
}

uint8_t gf_inv(uint8_t a) { return tables().exp[255 - tables().log[a]]; }

std::optional<GfMatrix> invert(const GfMatrix& m) {
  int n = m.rows;
  GfMatrix a = m;
  GfMatrix inv(n, n);
  for (int i = 0; i < n; ++i) inv.at(i, i) = 1;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    while (pivot < n && a.at(pivot, col) == 0) ++pivot;
    if (pivot == n) return std::nullopt;
    for (int c = 0; c < n; ++c) {
      std::swap(a.at(col, c), a.at(pivot, c));
      std::swap(inv.at(col, c), inv.at(pivot, c));
    }
    uint8_t scale = gf_inv(a.at(col, col));
    for (int c = 0; c < n; ++c) {
      a.at(col, c) = gf_mul(a.at(col, c), scale);
      inv.at(col, c) = gf_mul(inv.at(col, c), scale);
    }
    for (int r = 0; r < n; ++r) {
      uint8_t f = a.at(r, col);
      if (r == col || f == 0) continue;
      for (int c = 0; c < n; ++c) {
        a.at(r, c) ^= gf_mul(f, a.at(col, c));
        inv.at(r, c) ^= gf_mul(f, inv.at(col, c));
      }
    }
  }
  return inv;
}

void encode(const GfMatrix& coef, std::span<const uint8_t* const> srcs,
            std::span<uint8_t* const> outs, size_t len) {
  for (int r = 0; r < coef.rows; ++r)
    for (size_t i = 0; i < len; ++i) {
      uint8_t v = 0;
      for (int c = 0; c < coef.cols; ++c) v ^= gf_mul(coef.at(r, c), srcs[c][i]);
      outs[r][i] = v;
    }
}

}  // namespace scr::redset::kernels::reference
