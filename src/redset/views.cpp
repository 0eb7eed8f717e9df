#include "redset/views.hpp"

namespace scr::redset {
namespace {

// A view if the file offers one; nullptr to fall back on a copy.
template <class F>
const uint8_t* try_view(F& file, uint64_t offset, size_t n, ViewHold& hold) {
  if (n < kMinView) return nullptr;
  auto v = file.view(offset, n);
  if (!v.ok()) return nullptr;
  hold = std::move(*v);
  return hold->data();
}

}  // namespace

Result<const uint8_t*> view_or_read(io::LogicalFile& file, uint64_t offset, size_t n, uint8_t* copy,
                                    ViewHold& hold) {
  if (const uint8_t* p = try_view(file, offset, n, hold)) return p;
  SCR_TRY(file.read_pad(offset, copy, n));
  return copy;
}

Result<const uint8_t*> view_or_read(io::File& file, uint64_t offset, size_t n, uint8_t* copy,
                                    ViewHold& hold) {
  if (const uint8_t* p = try_view(file, offset, n, hold)) return p;
  SCR_TRY(file.pread_exact(copy, n, offset));
  return copy;
}

}  // namespace scr::redset
