#include "alloc_count.hpp"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace scr::bench {
namespace {

// Every block carries a header in front of what the caller gets: its size,
// and whether it was counted (made by the counted thread), so that a free
// on any thread takes back exactly what was counted.
struct Header {
  uint64_t size;
  uint64_t counted;
};
constexpr size_t kHeader = 16;
static_assert(sizeof(Header) == kHeader);

std::atomic<int64_t> live{0};
std::atomic<int64_t> peak{0};
thread_local bool counting = false;

void* take(size_t n, size_t align) {
  // The header sits just before the caller's block; with an alignment above
  // the header's size, the block starts `align` bytes into the allocation.
  size_t front = align > kHeader ? align : kHeader;
  void* base = nullptr;
  if (align > alignof(std::max_align_t)) {
    if (::posix_memalign(&base, align, n + front) != 0) base = nullptr;
  } else {
    base = std::malloc(n + front);
  }
  if (!base) return nullptr;
  char* user = static_cast<char*>(base) + front;
  Header h{n, counting ? 1u : 0u};
  std::memcpy(user - kHeader, &h, sizeof h);
  if (h.counted) {
    int64_t now = live.fetch_add(static_cast<int64_t>(n), std::memory_order_relaxed) + static_cast<int64_t>(n);
    int64_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
  }
  return user;
}

void give(void* p, size_t align) {
  if (!p) return;
  char* user = static_cast<char*>(p);
  Header h;
  std::memcpy(&h, user - kHeader, sizeof h);
  if (h.counted) live.fetch_sub(static_cast<int64_t>(h.size), std::memory_order_relaxed);
  size_t front = align > kHeader ? align : kHeader;
  std::free(user - front);
}

void* take_or_throw(size_t n, size_t align) {
  if (void* p = take(n, align)) return p;
  throw std::bad_alloc();
}

}  // namespace

void count_this_thread() { counting = true; }
int64_t counted_live_bytes() { return live.load(); }
int64_t counted_peak_bytes() { return peak.load(); }
void reset_counted_peak() { peak.store(live.load()); }

}  // namespace scr::bench

using scr::bench::give;
using scr::bench::take;
using scr::bench::take_or_throw;

void* operator new(size_t n) { return take_or_throw(n, 0); }
void* operator new[](size_t n) { return take_or_throw(n, 0); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return take(n, 0); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return take(n, 0); }
void* operator new(size_t n, std::align_val_t a) { return take_or_throw(n, static_cast<size_t>(a)); }
void* operator new[](size_t n, std::align_val_t a) { return take_or_throw(n, static_cast<size_t>(a)); }
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return take(n, static_cast<size_t>(a));
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return take(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { give(p, 0); }
void operator delete[](void* p) noexcept { give(p, 0); }
void operator delete(void* p, size_t) noexcept { give(p, 0); }
void operator delete[](void* p, size_t) noexcept { give(p, 0); }
void operator delete(void* p, const std::nothrow_t&) noexcept { give(p, 0); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { give(p, 0); }
void operator delete(void* p, std::align_val_t a) noexcept { give(p, static_cast<size_t>(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { give(p, static_cast<size_t>(a)); }
void operator delete(void* p, size_t, std::align_val_t a) noexcept { give(p, static_cast<size_t>(a)); }
void operator delete[](void* p, size_t, std::align_val_t a) noexcept { give(p, static_cast<size_t>(a)); }
void operator delete(void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  give(p, static_cast<size_t>(a));
}
void operator delete[](void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  give(p, static_cast<size_t>(a));
}
