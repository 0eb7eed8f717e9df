#include "redset/layout.hpp"

#include <algorithm>

namespace scr::redset {

uint64_t chunk_size(uint64_t largest_logical_file, int data_chunks) {
  uint64_t n = static_cast<uint64_t>(data_chunks);
  uint64_t chunk = (largest_logical_file + n - 1) / n;
  return (chunk + kSymbolAlign - 1) / kSymbolAlign * kSymbolAlign;
}

namespace {
// MPI counts are ints; a piece never needs to be anywhere near that large.
constexpr size_t kMaxPiece = size_t{1} << 30;
}  // namespace

size_t normalized_piece(size_t requested) {
  return std::clamp<size_t>(requested / kSymbolAlign * kSymbolAlign, kSymbolAlign, kMaxPiece);
}

Pieces::Pieces(uint64_t chunk, size_t requested_piece)
    : chunk_(chunk),
      size_(normalized_piece(requested_piece)),
      count_((chunk + size_ - 1) / size_) {}

size_t Pieces::length(uint64_t q) const {
  return static_cast<size_t>(std::min<uint64_t>(size_, chunk_ - offset(q)));
}

}  // namespace scr::redset
