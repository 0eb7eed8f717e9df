#include "redset/kernels/xor.hpp"

#include <isa-l/raid.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

namespace scr::redset::kernels {
namespace {

// ISA-L documents 32-byte aligned pointers for xor_gen; anything else takes
// the portable path so the kernel never depends on undocumented behaviour.
constexpr uintptr_t kAlign = 32;

bool aligned(const void* p) { return (reinterpret_cast<uintptr_t>(p) % kAlign) == 0; }

// Eight bytes at a time through memcpy (no alignment needed), then the tail.
void xor_portable(uint8_t* dst, std::span<const uint8_t* const> srcs, size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t v = 0;
    for (const uint8_t* s : srcs) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      v ^= w;
    }
    std::memcpy(dst + i, &v, 8);
  }
  for (; i < len; ++i) {
    uint8_t v = 0;
    for (const uint8_t* s : srcs) v ^= s[i];
    dst[i] = v;
  }
}

// xor_gen takes an int length; split longer runs.
constexpr size_t kMaxRun = size_t{1} << 30;

}  // namespace

void xor_gen(uint8_t* dst, std::span<const uint8_t* const> srcs, size_t len) {
  if (len == 0) return;
  if (srcs.empty()) {
    std::memset(dst, 0, len);
    return;
  }
  if (srcs.size() == 1) {
    if (srcs[0] != dst) std::memmove(dst, srcs[0], len);
    return;
  }
  bool all_aligned = aligned(dst) && std::all_of(srcs.begin(), srcs.end(), aligned);
  if (!all_aligned) {
    xor_portable(dst, srcs, len);
    return;
  }
  // ISA-L wants the sources then the destination in one array of pointers.
  std::vector<void*> vects(srcs.size() + 1);
  for (size_t done = 0; done < len; done += kMaxRun) {
    size_t run = std::min(kMaxRun, len - done);
    for (size_t i = 0; i < srcs.size(); ++i) vects[i] = const_cast<uint8_t*>(srcs[i] + done);
    vects.back() = dst + done;
    // Fails only for fewer than three vectors, which the cases above exclude.
    (void)::xor_gen(static_cast<int>(vects.size()), static_cast<int>(run), vects.data());
  }
}

void xor_into(uint8_t* dst, const uint8_t* src, size_t len) {
  const uint8_t* srcs[2] = {dst, src};
  xor_gen(dst, srcs, len);
}

}  // namespace scr::redset::kernels
