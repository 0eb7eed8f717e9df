#include "redset/headers.hpp"

#include "mpi/comm.hpp"
#include "redset/tags.hpp"

namespace scr::redset {

int header_width(const Set& set) {
  switch (set.scheme()) {
    case Scheme::single: return 0;
    case Scheme::partner: return set.params().replicas;
    case Scheme::xor_code: return 1;
    case Scheme::rs: return set.params().failures;
  }
  return 0;
}

kv::Tree member_entry(const Set& set, const kv::Tree& files) {
  kv::Tree entry;
  entry.put("DESC", set.desc());
  entry.merge(files);
  return entry;
}

kv::Tree header_with(const Set& set, const std::map<int, kv::Tree>& entries) {
  kv::Tree h;
  kv::Tree& group = h.child("GROUP");
  group.set_int("RANKS", set.ranks());
  for (int i = 0; i < set.ranks(); ++i)
    group.child("RANK").set_int(std::to_string(i), set.members()[static_cast<size_t>(i)]);
  h.set_int("RANK", set.rank());
  for (const auto& [member, entry] : entries) h.child("DESC", member) = entry;
  return h;
}

std::map<int, kv::Tree> gather_left_entries(const Set& set, const kv::Tree& own_entry, int width) {
  std::map<int, kv::Tree> entries;
  entries[set.rank()] = own_entry;
  for (int d = 1; d <= width; ++d)
    entries[set.left(d)] =
        mpi::sendrecv_tree(set.comm(), own_entry, set.right(d), set.left(d), tags::kEntries + d);
  return entries;
}

namespace {
Status mismatch(const std::string& what) {
  return Error(Errc::corrupt, "header does not belong to this member of this set: " + what);
}
}  // namespace

Status check_header(const Set& set, const kv::Tree& header) {
  if (header.int_or("RANK", -1) != set.rank()) return mismatch("RANK");
  const kv::Tree* group = header.get("GROUP");
  if (!group || group->int_or("RANKS", -1) != set.ranks()) return mismatch("GROUP/RANKS");
  for (int i = 0; i < set.ranks(); ++i) {
    const kv::Tree* ranks = group->get("RANK");
    if (!ranks || ranks->int_or(std::to_string(i), -1) != set.members()[static_cast<size_t>(i)])
      return mismatch("GROUP/RANK/" + std::to_string(i));
  }
  const kv::Tree* mine = header.at({"DESC", std::to_string(set.rank()), "DESC"});
  if (!mine || *mine != set.desc())
    return mismatch("DESC of this member (scheme, set or job differ)");
  for (int d = 1; d <= header_width(set); ++d)
    if (!header.at({"DESC", std::to_string(set.left(d))}))
      return mismatch("no metadata copy of left neighbour " + std::to_string(set.left(d)));
  return Status::Ok();
}

Result<std::vector<FileEntry>> entry_files(const kv::Tree& header, int member) {
  const kv::Tree* entry = header.at({"DESC", std::to_string(member)});
  if (!entry) return Error(Errc::corrupt, "no file list for set member " + std::to_string(member));
  return files_from_tree(*entry);
}

}  // namespace scr::redset
