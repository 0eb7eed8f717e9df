// Piece buffers for the streaming engines: aligned for the SIMD kernels and
// sized by the piece, never by the files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "redset/layout.hpp"

namespace scr::redset {

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t n) : size_(n) {
    size_t rounded = (n + kSymbolAlign - 1) / kSymbolAlign * kSymbolAlign;
    void* p = std::aligned_alloc(kSymbolAlign, rounded == 0 ? kSymbolAlign : rounded);
    if (!p) throw std::bad_alloc();
    data_.reset(static_cast<uint8_t*>(p));
  }
  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t size_ = 0;
};

}  // namespace scr::redset
