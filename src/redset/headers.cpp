#include "redset/headers.hpp"

#include "mpi/comm.hpp"
#include "mpi/tags.hpp"

namespace scr::redset {

int header_width(const Set& set) { return set.shape().width(); }

kv::Tree member_entry(const Set& set, kv::Tree files) {
  files.put("DESC", set.desc());
  return files;
}

kv::Tree header_with(const Set& set, std::map<int, kv::Tree> entries) {
  return header_with(set.shape(), set.rank(), std::move(entries));
}

kv::Tree header_with(const SetShape& shape, int member, std::map<int, kv::Tree> entries) {
  kv::Tree h;
  kv::Tree& group = h.child("GROUP");
  group.set_int("RANKS", shape.ranks());
  for (int i = 0; i < shape.ranks(); ++i)
    group.child("RANK").set_int(std::to_string(i), shape.members[static_cast<size_t>(i)]);
  h.set_int("RANK", member);
  for (auto& [m, entry] : entries) h.child("DESC", m) = std::move(entry);
  return h;
}

std::map<int, kv::Tree> gather_left_entries(const Set& set, kv::Tree own_entry, int width) {
  std::map<int, kv::Tree> entries;
  for (int d = 1; d <= width; ++d)
    entries[set.left(d)] =
        mpi::sendrecv_tree(set.comm(), own_entry, set.right(d), set.left(d), mpi::tags::kEntries + d);
  entries[set.rank()] = std::move(own_entry);
  return entries;
}

namespace {
Status mismatch(const std::string& what) {
  return Error(Errc::corrupt, "header does not belong to this member of this set: " + what);
}
}  // namespace

Status check_header(const Set& set, const kv::Tree& header) {
  return check_header(set.shape(), set.rank(), header);
}

Status check_header(const SetShape& shape, int member, const kv::Tree& header) {
  if (header.int_or("RANK", -1) != member) return mismatch("RANK");
  const kv::Tree* group = header.get("GROUP");
  if (!group || group->int_or("RANKS", -1) != shape.ranks()) return mismatch("GROUP/RANKS");
  for (int i = 0; i < shape.ranks(); ++i) {
    const kv::Tree* ranks = group->get("RANK");
    if (!ranks || ranks->int_or(std::to_string(i), -1) != shape.members[static_cast<size_t>(i)])
      return mismatch("GROUP/RANK/" + std::to_string(i));
  }
  const kv::Tree* mine = header.at({"DESC", std::to_string(member), "DESC"});
  if (!mine || *mine != shape.desc(member))
    return mismatch("DESC of this member (scheme, set or job differ)");
  for (int d = 1; d <= shape.width(); ++d)
    if (!header.at({"DESC", std::to_string(shape.left(member, d))}))
      return mismatch("no metadata copy of left neighbour " +
                      std::to_string(shape.left(member, d)));
  return Status::Ok();
}

Result<std::vector<FileEntry>> entry_files(const kv::Tree& header, int member) {
  const kv::Tree* entry = header.at({"DESC", std::to_string(member)});
  if (!entry) return Error(Errc::corrupt, "no file list for set member " + std::to_string(member));
  return files_from_tree(*entry);
}

}  // namespace scr::redset
