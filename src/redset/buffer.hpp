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
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "redset/layout.hpp"

namespace scr::redset {

namespace detail {
// The whole mapping: the buffer's pages between two inaccessible guard pages.
struct Unmap {
  size_t bytes = 0;
  size_t offset = 0;  // from the mapping's start to the data
  void operator()(uint8_t* p) const { ::munmap(p - offset, bytes); }
};
inline size_t page_size() {
  static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}
}  // namespace detail

// The data ends where the trailing guard page begins (to within kSymbolAlign,
// for sizes that are not a multiple of it), so an engine that runs past its
// piece faults at once instead of corrupting a neighbour: sanitizers do not
// watch mappings made here.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t n) : size_(n) {
    const size_t page = detail::page_size();
    size_t span = (n + page - 1) / page * page;
    size_t bytes = span + 2 * page;
    void* p = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<uint8_t*>(p);
    if (span > 0 && ::mprotect(base + page, span, PROT_READ | PROT_WRITE) != 0) {
      ::munmap(p, bytes);
      throw std::bad_alloc();
    }
    // Aligned for the kernels: the span is page-aligned and kSymbolAlign divides a page.
    size_t slack = span - (n + kSymbolAlign - 1) / kSymbolAlign * kSymbolAlign;
    size_t offset = page + slack;
    data_ = std::unique_ptr<uint8_t, detail::Unmap>(base + offset, detail::Unmap{bytes, offset});
  }
  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t, detail::Unmap> data_;
  size_t size_ = 0;
};

static_assert(4096 % kSymbolAlign == 0);

}  // namespace scr::redset
