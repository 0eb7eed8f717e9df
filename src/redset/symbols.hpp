// A process's XOR/RS symbols: its data chunks live in its logical file, its
// check chunks after the header of its redundancy file.
//
// The first I/O error sticks: later reads yield zeros and later writes are
// skipped. A process that hits an error thus still plays its part in the
// message schedule (its peers would wait forever otherwise) and reports the
// error when the schedule is done.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/lofi.hpp"
#include "redset/layout.hpp"
#include "redset/views.hpp"

namespace scr::redset {

class SymbolStore {
 public:
  SymbolStore(io::LogicalFile& data, io::File& redundancy, uint64_t data_offset, uint64_t chunk)
      : data_(data), redundancy_(redundancy), data_offset_(data_offset), chunk_(chunk) {}

  // n bytes at `offset` within the symbol, copied into buf.
  void read(Symbol s, uint64_t offset, uint8_t* buf, size_t n);
  // The same bytes in place where possible (alive while `hold` is), else
  // copied into `copy`.
  const uint8_t* view(Symbol s, uint64_t offset, size_t n, uint8_t* copy, ViewHold& hold);
  void write(Symbol s, uint64_t offset, const uint8_t* buf, size_t n);
  const Status& status() const { return status_; }

 private:
  io::LogicalFile& data_;
  io::File& redundancy_;
  uint64_t data_offset_;
  uint64_t chunk_;
  Status status_;
};

}  // namespace scr::redset
