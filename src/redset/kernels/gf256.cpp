#include "redset/kernels/gf256.hpp"

#include <isa-l/erasure_code.h>

#include <algorithm>
#include <cassert>

namespace scr::redset::kernels {
namespace {

// ISA-L kernels take int lengths; split longer runs.
constexpr size_t kMaxRun = size_t{1} << 30;

std::vector<uint8_t*> offset_all(std::span<uint8_t* const> ptrs, size_t by) {
  std::vector<uint8_t*> out(ptrs.size());
  for (size_t i = 0; i < ptrs.size(); ++i) out[i] = ptrs[i] + by;
  return out;
}

std::vector<uint8_t*> offset_all(std::span<const uint8_t* const> ptrs, size_t by) {
  std::vector<uint8_t*> out(ptrs.size());
  // ISA-L's prototypes are not const-correct; it only reads the sources.
  for (size_t i = 0; i < ptrs.size(); ++i) out[i] = const_cast<uint8_t*>(ptrs[i]) + by;
  return out;
}

}  // namespace

uint8_t gf_mul(uint8_t a, uint8_t b) { return ::gf_mul(a, b); }
uint8_t gf_inv(uint8_t a) { return ::gf_inv(a); }

GfMatrix cauchy_generator(int data, int checks) {
  assert(data >= 1 && checks >= 0 && data + checks <= 256);
  GfMatrix g(data + checks, data);
  gf_gen_cauchy1_matrix(g.v.data(), data + checks, data);
  return g;
}

GfMatrix select_rows(const GfMatrix& m, std::span<const int> rows) {
  GfMatrix out(static_cast<int>(rows.size()), m.cols);
  for (size_t r = 0; r < rows.size(); ++r)
    std::copy_n(&m.v[static_cast<size_t>(rows[r]) * m.cols], m.cols, &out.v[r * m.cols]);
  return out;
}

GfMatrix multiply(const GfMatrix& a, const GfMatrix& b) {
  assert(a.cols == b.rows);
  GfMatrix out(a.rows, b.cols);
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < b.cols; ++c) {
      uint8_t sum = 0;
      for (int i = 0; i < a.cols; ++i) sum ^= ::gf_mul(a.at(r, i), b.at(i, c));
      out.at(r, c) = sum;
    }
  return out;
}

Result<GfMatrix> invert(const GfMatrix& m) {
  assert(m.rows == m.cols);
  GfMatrix in = m;  // gf_invert_matrix destroys its input
  GfMatrix out(m.rows, m.cols);
  if (m.rows > 0 && gf_invert_matrix(in.v.data(), out.v.data(), m.rows) != 0)
    return Error(Errc::unrecoverable, "GF(2^8) matrix is singular");
  return out;
}

Result<GfMatrix> solve_for(const GfMatrix& gen, std::span<const int> known,
                           std::span<const int> wanted) {
  if (static_cast<int>(known.size()) != gen.cols)
    return Error(Errc::invalid_argument,
                 "decoding needs exactly as many known symbols as data symbols");
  SCR_ASSIGN_OR_RETURN(GfMatrix known_inverse, invert(select_rows(gen, known)));
  return multiply(select_rows(gen, wanted), known_inverse);
}

GfTables::GfTables(const GfMatrix& coef)
    : rows_(coef.rows), cols_(coef.cols), tables_(32 * coef.v.size()) {
  if (!coef.v.empty())
    ec_init_tables(cols_, rows_, const_cast<uint8_t*>(coef.v.data()), tables_.data());
}

void GfTables::encode(std::span<const uint8_t* const> srcs, std::span<uint8_t* const> outs,
                      size_t len) const {
  assert(static_cast<int>(srcs.size()) == cols_ && static_cast<int>(outs.size()) == rows_);
  auto* tables = const_cast<uint8_t*>(tables_.data());
  for (size_t done = 0; done < len && rows_ > 0; done += kMaxRun) {
    int run = static_cast<int>(std::min(kMaxRun, len - done));
    auto in = offset_all(srcs, done);
    auto out = offset_all(outs, done);
    ec_encode_data(run, cols_, rows_, tables, in.data(), out.data());
  }
}

void GfTables::update(int col, const uint8_t* src, std::span<uint8_t* const> outs,
                      size_t len) const {
  assert(col >= 0 && col < cols_ && static_cast<int>(outs.size()) == rows_);
  auto* tables = const_cast<uint8_t*>(tables_.data());
  for (size_t done = 0; done < len && rows_ > 0; done += kMaxRun) {
    int run = static_cast<int>(std::min(kMaxRun, len - done));
    auto out = offset_all(outs, done);
    ec_encode_data_update(run, cols_, rows_, col, tables, const_cast<uint8_t*>(src) + done,
                          out.data());
  }
}

}  // namespace scr::redset::kernels
