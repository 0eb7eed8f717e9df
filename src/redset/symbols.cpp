#include "redset/symbols.hpp"

#include <cstring>

namespace scr::redset {

void SymbolStore::read(Symbol s, uint64_t offset, uint8_t* buf, size_t n) {
  if (!status_.ok()) {
    std::memset(buf, 0, n);
    return;
  }
  uint64_t at = static_cast<uint64_t>(s.index) * chunk_ + offset;
  status_ = s.kind == Symbol::Kind::data ? data_.read_pad(at, buf, n)
                                         : redundancy_.pread_exact(buf, n, data_offset_ + at);
  if (!status_.ok()) std::memset(buf, 0, n);
}

const uint8_t* SymbolStore::view(Symbol s, uint64_t offset, size_t n, uint8_t* copy,
                                 ViewHold& hold) {
  if (!status_.ok()) {
    std::memset(copy, 0, n);
    return copy;
  }
  uint64_t at = static_cast<uint64_t>(s.index) * chunk_ + offset;
  auto got = s.kind == Symbol::Kind::data
                 ? view_or_read(data_, at, n, copy, hold)
                 : view_or_read(redundancy_, data_offset_ + at, n, copy, hold);
  if (got.ok()) return *got;
  status_ = got.status();
  std::memset(copy, 0, n);
  return copy;
}

void SymbolStore::write(Symbol s, uint64_t offset, const uint8_t* buf, size_t n) {
  if (!status_.ok()) return;
  uint64_t at = static_cast<uint64_t>(s.index) * chunk_ + offset;
  status_ = s.kind == Symbol::Kind::data ? data_.write_pad(at, buf, n)
                                         : redundancy_.pwrite(buf, n, data_offset_ + at);
}

}  // namespace scr::redset
