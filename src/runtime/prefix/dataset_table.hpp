// The table a process's filemap and the prefix index share: one entry per
// dataset id, DSET/<id>/..., in a metadata tree. Each adds what is its own
// (the filemap its files and lifecycle, the index its flush marks and
// CURRENT) on top of these operations.
#pragma once

#include <vector>

#include "kvtree/tree.hpp"

namespace scr::rt {

class DatasetTable {
 public:
  std::vector<int> ids() const;  // ascending
  bool has(int id) const { return find(id) != nullptr; }
  const kv::Tree* find(int id) const;
  kv::Tree* find(int id);
  void erase(int id);
  const kv::Tree& tree() const { return tree_; }

 protected:
  // Created if absent: each table writes its entries through its own typed
  // calls (the filemap's only through the cache catalog).
  kv::Tree& entry(int id);
  kv::Tree tree_;
};

}  // namespace scr::rt
