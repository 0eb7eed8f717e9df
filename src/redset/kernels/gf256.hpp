// GF(2^8) kernels for the Reed-Solomon scheme: matrices over the field and
// multiply-accumulate over buffers. No files, no MPI. Backed by ISA-L
// (field polynomial 0x11d, the one ISA-L's tables use); the plain versions in
// reference.hpp are the oracle the tests compare against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/status.hpp"

namespace scr::redset::kernels {

uint8_t gf_mul(uint8_t a, uint8_t b);
uint8_t gf_inv(uint8_t a);  // a != 0

// Row-major matrix over GF(2^8).
struct GfMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<uint8_t> v;

  GfMatrix() = default;
  GfMatrix(int r, int c) : rows(r), cols(c), v(static_cast<size_t>(r) * c, 0) {}
  uint8_t& at(int r, int c) { return v[static_cast<size_t>(r) * cols + c]; }
  uint8_t at(int r, int c) const { return v[static_cast<size_t>(r) * cols + c]; }
  bool operator==(const GfMatrix&) const = default;
};

// Systematic generator of an MDS code with `data` data symbols and `checks`
// check symbols: (data + checks) x data, the identity on top and Cauchy rows
// below, so that any `data` of its rows are independent. data + checks <= 256.
GfMatrix cauchy_generator(int data, int checks);

GfMatrix select_rows(const GfMatrix& m, std::span<const int> rows);
GfMatrix multiply(const GfMatrix& a, const GfMatrix& b);
// Inverse of a square matrix; Errc::unrecoverable when it is singular.
Result<GfMatrix> invert(const GfMatrix& m);

// Decoding: with `gen` the generator and the symbols of rows `known` in hand
// (exactly gen.cols of them), the coefficients that give the symbols of rows
// `wanted` as combinations of the known ones, one row per wanted symbol.
Result<GfMatrix> solve_for(const GfMatrix& gen, std::span<const int> known,
                           std::span<const int> wanted);

// A coefficient matrix expanded into ISA-L's multiply tables (32 bytes per
// coefficient), ready to run over buffers of any length and alignment.
class GfTables {
 public:
  explicit GfTables(const GfMatrix& coef);
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  // outs[r] = sum over c of coef(r, c) * srcs[c]; srcs.size() == cols().
  void encode(std::span<const uint8_t* const> srcs, std::span<uint8_t* const> outs,
              size_t len) const;
  // outs[r] ^= coef(r, col) * src: one source folded in as it arrives.
  void update(int col, const uint8_t* src, std::span<uint8_t* const> outs, size_t len) const;

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<uint8_t> tables_;
};

}  // namespace scr::redset::kernels
