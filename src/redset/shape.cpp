#include "redset/shape.hpp"

#include "redset/redset.hpp"

namespace scr::redset {

int SetShape::width() const {
  switch (scheme) {
    case Scheme::single: return 0;
    case Scheme::partner: return replicas;
    case Scheme::xor_code: return 1;
    case Scheme::rs: return failures;
  }
  return 0;
}

kv::Tree SetShape::desc(int member) const {
  kv::Tree t;
  t.set_int("ENABLED", 1);
  t.set_int("GROUP", group);
  t.set_int("GROUPS", groups);
  t.set_int("RANK", member);
  t.set_int("RANKS", ranks());
  t.set("TYPE", scheme_name(scheme));
  t.set_int("WRANK", members[static_cast<size_t>(member)]);
  t.set_int("WRANKS", world_ranks);
  if (scheme == Scheme::rs) t.set_int("CKSUM", failures);
  if (scheme == Scheme::partner) t.set_int("REPLICAS", replicas);
  kv::Tree& list = t.child("MEMBERS");
  for (size_t i = 0; i < members.size(); ++i) list.set_int(std::to_string(i), members[i]);
  return t;
}

std::string SetShape::file_name(int member) const {
  return std::string(kFilePrefix) + std::to_string(members[static_cast<size_t>(member)]) + "." +
         scheme_file_tag(scheme) + ".grp_" + std::to_string(group + 1) + "_of_" +
         std::to_string(groups) + ".mem_" + std::to_string(member + 1) + "_of_" +
         std::to_string(ranks()) + ".redset";
}

namespace {

Status bad(const std::string& what) {
  return Error(Errc::corrupt, "redundancy descriptor " + what);
}

// The scheme's own limits, as Set::create enforces them.
Status check_geometry(const SetShape& s) {
  int p = s.ranks();
  if (s.scheme == Scheme::xor_code && p < 2) return bad("has an XOR set of one member");
  if (s.scheme == Scheme::rs && (s.failures < 1 || s.failures >= p || p + s.failures > 256))
    return bad("has RS CKSUM=" + std::to_string(s.failures) + " for a set of " + std::to_string(p));
  if (s.scheme == Scheme::partner && (s.replicas < 1 || s.replicas >= p))
    return bad("has PARTNER REPLICAS=" + std::to_string(s.replicas) + " for a set of " +
               std::to_string(p));
  return Status::Ok();
}

}  // namespace

Result<SetShape> SetShape::from_desc(const kv::Tree& desc) {
  SetShape s;
  auto type = parse_scheme(desc.value_or("TYPE", ""));
  if (!type) return bad("has no valid TYPE");
  s.scheme = *type;
  s.group = static_cast<int>(desc.int_or("GROUP", -1));
  s.groups = static_cast<int>(desc.int_or("GROUPS", -1));
  s.world_ranks = static_cast<int>(desc.int_or("WRANKS", -1));
  s.failures = static_cast<int>(desc.int_or("CKSUM", 1));
  s.replicas = static_cast<int>(desc.int_or("REPLICAS", 1));
  int64_t ranks = desc.int_or("RANKS", -1);
  int64_t rank = desc.int_or("RANK", -1);
  if (s.groups < 1 || s.group < 0 || s.group >= s.groups || s.world_ranks < 1 || ranks < 1 ||
      ranks > s.world_ranks || rank < 0 || rank >= ranks)
    return bad("has no valid GROUP, GROUPS, RANK, RANKS or WRANKS");
  const kv::Tree* list = desc.get("MEMBERS");
  for (int64_t i = 0; i < ranks; ++i) {
    int64_t w = list ? list->int_or(std::to_string(i), -1) : -1;
    if (w < 0 || w >= s.world_ranks) return bad("has no valid MEMBERS/" + std::to_string(i));
    s.members.push_back(static_cast<int>(w));
  }
  SCR_TRY(check_geometry(s));
  // Anything desc() would not have written (other keys, another WRANK)
  // means the descriptor is not one of ours.
  if (s.desc(static_cast<int>(rank)) != desc) return bad("has unexpected keys or values");
  return s;
}

}  // namespace scr::redset
