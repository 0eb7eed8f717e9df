// Where XOR and RS keep data and check symbols (docs/formats/redset.md).
//
// A set of p members keeps k check chunks per member (XOR is k = 1). Each
// member's logical file is cut into p - k data chunks of `chunk` bytes, the
// last ones zero-padded. The p(p-k) data chunks and p*k check chunks form p
// stripes of p symbols, one symbol from every member: at position
// m = (member - stripe) mod p a stripe holds check row m when m < k, else data
// chunk m - k of that member. So
//   member i's data chunk d  is in stripe (i - k - d) mod p,
//   member i's check chunk j is row j of stripe (i - j) mod p,
// and any k lost members cost every stripe at most k of its p symbols.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scr::redset {

struct Symbol {
  enum class Kind { data, check };
  Kind kind = Kind::data;
  int index = 0;  // data chunk number or check row
  static Symbol data(int d) { return {Kind::data, d}; }
  static Symbol check(int j) { return {Kind::check, j}; }
};

class StripeLayout {
 public:
  StripeLayout(int members, int checks) : p_(members), k_(checks) {}
  int members() const { return p_; }
  int checks() const { return k_; }
  int data_chunks() const { return p_ - k_; }

  int position(int member, int stripe) const { return mod(member - stripe); }
  int member_at(int stripe, int position) const { return mod(stripe + position); }
  Symbol symbol_at(int position) const {
    return position < k_ ? Symbol::check(position) : Symbol::data(position - k_);
  }
  Symbol symbol_of(int member, int stripe) const { return symbol_at(position(member, stripe)); }
  // Row of the systematic generator (kernels::cauchy_generator) that produces
  // the symbol at a position: data chunk c is row c, check row j is row p-k+j.
  int generator_row(int position) const {
    return position < k_ ? data_chunks() + position : position - k_;
  }

 private:
  int p_;
  int k_;
  int mod(int x) const { return ((x % p_) + p_) % p_; }
};

// Alignment of chunk and piece sizes: keeps every piece a whole number of
// SIMD blocks and cache lines for the kernels.
inline constexpr uint64_t kSymbolAlign = 64;

// Smallest chunk (a multiple of kSymbolAlign) such that `data_chunks` chunks
// hold the largest logical file of the set.
uint64_t chunk_size(uint64_t largest_logical_file, int data_chunks);

// A requested piece size made usable: a multiple of kSymbolAlign, at least
// kSymbolAlign, and small enough for an MPI count.
size_t normalized_piece(size_t requested);

// Chunks are streamed in pieces: piece q covers [q*size, q*size + length(q)).
class Pieces {
 public:
  Pieces(uint64_t chunk, size_t requested_piece);
  uint64_t count() const { return count_; }
  size_t size() const { return size_; }
  uint64_t offset(uint64_t q) const { return q * size_; }
  size_t length(uint64_t q) const;

 private:
  uint64_t chunk_;
  size_t size_;
  uint64_t count_;
};

}  // namespace scr::redset
