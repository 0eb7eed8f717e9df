#include "redset/partner_layout.hpp"

#include <algorithm>

#include "redset/headers.hpp"
#include "redset/meta.hpp"

namespace scr::redset {
namespace {

// REPLICA/<left neighbour>/{OFFSET, SIZE}, nearest neighbour first.
Result<kv::Tree> replica_table(const SetShape& shape, int member,
                               const std::map<int, kv::Tree>& entries) {
  kv::Tree table;
  uint64_t offset = 0;
  for (int d = 1; d <= shape.replicas; ++d) {
    int x = shape.left(member, d);
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

Result<kv::Tree> partner_header(const Set& set, std::map<int, kv::Tree> entries) {
  return partner_header(set.shape(), set.rank(), std::move(entries));
}

Result<kv::Tree> partner_header(const SetShape& shape, int member, std::map<int, kv::Tree> entries) {
  SCR_ASSIGN_OR_RETURN(kv::Tree table, replica_table(shape, member, entries));
  kv::Tree h = header_with(shape, member, std::move(entries));
  h.put("REPLICA", std::move(table));
  return h;
}

HeaderCheck replica_check(const Set& set) { return replica_check(set.shape(), set.rank()); }

HeaderCheck replica_check(const SetShape& shape, int member) {
  return [shape, member](const Header& h, uint64_t file_size) -> Status {
    std::map<int, kv::Tree> entries;
    for (int d = 1; d <= shape.replicas; ++d)
      entries[shape.left(member, d)] = *h.tree.at({"DESC", std::to_string(shape.left(member, d))});
    SCR_ASSIGN_OR_RETURN(kv::Tree expected, replica_table(shape, member, entries));
    const kv::Tree* table = h.tree.get("REPLICA");
    if (!table || *table != expected)
      return Error(Errc::corrupt, "REPLICA table is missing or wrong");
    if (file_size < h.data_offset || file_size - h.data_offset < replicas_end(expected))
      return Error(Errc::corrupt, "replica data is truncated");
    return Status::Ok();
  };
}

}  // namespace scr::redset
