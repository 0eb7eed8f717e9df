// Which names of a growing list were met before, for rank 0's merge of every
// process's files into the restart file table: a shared file is listed once,
// under the lowest rank that routed it. An open addressing table of indexes
// into the list, keyed by a 64-bit hash of each name: about 16 bytes a name,
// where a set holding copies of the names takes about 100, and rank 0 meets
// every file of the checkpoint here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace scr::rt {

// `Item` has a `name`; `items` is the list the caller appends to.
template <class Item, class Hash = std::hash<std::string_view>>
class NamesSeen {
 public:
  explicit NamesSeen(const std::vector<Item>& items) : items_(items) {}

  // True the first time `name` is met: the caller then appends it to the
  // list, as its next item, before asking again.
  bool first(const std::string& name) {
    if (2 * (hashes_.size() + 1) > slots_.size()) grow();
    uint64_t h = Hash{}(name);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint32_t at = slots_[i];
      if (at == 0) {
        slots_[i] = static_cast<uint32_t>(hashes_.size() + 1);
        hashes_.push_back(h);
        return true;
      }
      if (hashes_[at - 1] == h && items_[at - 1].name == name) return false;
    }
  }

 private:
  void grow() {
    std::vector<uint32_t> bigger(std::max<size_t>(64, slots_.size() * 2), 0);
    slots_.swap(bigger);
    size_t mask = slots_.size() - 1;
    for (size_t k = 0; k < hashes_.size(); ++k) {
      size_t i = hashes_[k] & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = static_cast<uint32_t>(k + 1);
    }
  }

  const std::vector<Item>& items_;
  std::vector<uint64_t> hashes_;  // of items_[k], k in met order
  std::vector<uint32_t> slots_;   // index + 1 into items_, 0 when free; a power of two
};

}  // namespace scr::rt
