#include "runtime/prefix/dataset_table.hpp"

#include <climits>

#include <string>

namespace scr::rt {

std::vector<int> DatasetTable::ids() const {
  std::vector<int> out;
  if (const kv::Tree* d = tree_.get("DSET"))
    for (int64_t id : d->int_keys())
      if (id >= 0 && id <= INT32_MAX) out.push_back(static_cast<int>(id));  // never truncated onto another
  return out;
}

const kv::Tree* DatasetTable::find(int id) const { return tree_.at({"DSET", std::to_string(id)}); }
kv::Tree* DatasetTable::find(int id) { return tree_.at({"DSET", std::to_string(id)}); }
kv::Tree& DatasetTable::entry(int id) { return tree_.child("DSET", id); }

void DatasetTable::erase(int id) {
  if (kv::Tree* d = tree_.get("DSET")) d->erase(std::to_string(id));
}

}  // namespace scr::rt
