// Piece buffers for the streaming engines: aligned for the SIMD kernels and
// sized by the piece, never by the files.
//
// Each buffer is its own anonymous mapping, returned to the system when the
// buffer goes: a checkpoint's encode must leave nothing resident behind it.
// From malloc, a freed buffer of this size raises glibc's mmap threshold, so
// the next encode's buffers come from the heap and stay resident after it (a
// process grew by 6 MiB after its first Reed-Solomon encode).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "redset/layout.hpp"

namespace scr::redset {

namespace detail {
struct Unmap {
  size_t bytes = 0;
  void operator()(uint8_t* p) const { ::munmap(p, bytes); }
};
}  // namespace detail

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t n) : size_(n) {
    // Page-aligned, so aligned for the kernels too (kSymbolAlign divides a page).
    size_t bytes = n == 0 ? 1 : n;
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = std::unique_ptr<uint8_t, detail::Unmap>(static_cast<uint8_t*>(p), detail::Unmap{bytes});
  }
  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t, detail::Unmap> data_;
  size_t size_ = 0;
};

static_assert(4096 % kSymbolAlign == 0);

}  // namespace scr::redset
