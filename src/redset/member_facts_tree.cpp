#include "redset/member_facts_tree.hpp"

namespace scr::redset {

kv::Tree facts_tree(const MemberFacts& f) {
  kv::Tree t;
  t.set("REDFILE", f.redundancy_file);
  if (f.header) {
    t.put("HEADER", f.header->tree);
    t.set_uint("DATA_OFFSET", f.header->data_offset);
  } else {
    t.set("HEADER_ERROR", f.header_error);
  }
  if (f.size)
    t.set_uint("SIZE", *f.size);
  else
    t.set("SIZE_ERROR", f.size_error);
  t.set_int("FILES_PRESENT", f.files_present ? 1 : 0);
  return t;
}

Result<MemberFacts> facts_from_tree(const kv::Tree& t) {
  MemberFacts f;
  auto redfile = t.value("REDFILE");
  if (!redfile) return Error(Errc::corrupt, "survey facts without REDFILE");
  f.redundancy_file = *redfile;
  if (const kv::Tree* header = t.get("HEADER")) {
    SCR_ASSIGN_OR_RETURN(uint64_t offset, t.get_uint("DATA_OFFSET"));
    f.header = Header{*header, offset};
  } else {
    f.header_error = t.value_or("HEADER_ERROR", "no header");
  }
  if (t.has("SIZE")) {
    SCR_ASSIGN_OR_RETURN(f.size, t.get_uint("SIZE"));
  } else {
    f.size_error = t.value_or("SIZE_ERROR", "no size");
  }
  f.files_present = t.int_or("FILES_PRESENT", 0) == 1;
  return f;
}

}  // namespace scr::redset
