#include "redset/partner_layout.hpp"

#include <algorithm>

#include "redset/headers.hpp"
#include "redset/meta.hpp"

namespace scr::redset {
namespace {

// REPLICA/<left neighbour>/{OFFSET, SIZE}, nearest neighbour first.
Result<kv::Tree> replica_table(const Set& set, const std::map<int, kv::Tree>& entries) {
  kv::Tree table;
  uint64_t offset = 0;
  for (int d = 1; d <= set.params().replicas; ++d) {
    int x = set.left(d);
    auto it = entries.find(x);
    if (it == entries.end())
      return Error(Errc::corrupt, "no metadata for replica " + std::to_string(x));
    SCR_ASSIGN_OR_RETURN(uint64_t size, entry_size(it->second));
    kv::Tree& slot = table.child(std::to_string(x));
    slot.set_uint("OFFSET", offset);
    slot.set_uint("SIZE", size);
    offset += size;
  }
  return table;
}

uint64_t replicas_end(const kv::Tree& table) {
  uint64_t end = 0;
  for (const auto& [key, slot] : table.children())
    end = std::max(end, slot->uint_or("OFFSET", 0) + slot->uint_or("SIZE", 0));
  return end;
}

}  // namespace

Result<uint64_t> entry_size(const kv::Tree& entry) {
  SCR_ASSIGN_OR_RETURN(auto files, files_from_tree(entry));
  return total_size(files);
}

Result<kv::Tree> partner_header(const Set& set, const std::map<int, kv::Tree>& entries) {
  kv::Tree h = header_with(set, entries);
  SCR_ASSIGN_OR_RETURN(kv::Tree table, replica_table(set, entries));
  h.put("REPLICA", std::move(table));
  return h;
}

HeaderCheck replica_check(const Set& set) {
  return [&set](const Header& h, uint64_t file_size) -> Status {
    std::map<int, kv::Tree> entries;
    for (int d = 1; d <= set.params().replicas; ++d)
      entries[set.left(d)] = *h.tree.at({"DESC", std::to_string(set.left(d))});
    SCR_ASSIGN_OR_RETURN(kv::Tree expected, replica_table(set, entries));
    const kv::Tree* table = h.tree.get("REPLICA");
    if (!table || *table != expected)
      return Error(Errc::corrupt, "REPLICA table is missing or wrong");
    if (file_size < h.data_offset || file_size - h.data_offset < replicas_end(expected))
      return Error(Errc::corrupt, "replica data is truncated");
    return Status::Ok();
  };
}

}  // namespace scr::redset
