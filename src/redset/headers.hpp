// Redundancy headers (docs/formats/redset.md). Every scheme writes
//   GROUP/{RANK/<i> = world rank, RANKS}, RANK = set rank,
//   DESC/<set rank>/{DESC, FILE/..., FILES}
// for the writer and for the `width` left neighbours whose metadata it keeps
// (XOR 1, RS k, PARTNER replicas), plus scheme keys (CHUNK, REPLICA).
// Apply and recover build headers with the same functions, so a rebuilt
// header is byte for byte the one that was lost.
#pragma once

#include <map>
#include <vector>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "redset/meta.hpp"
#include "redset/set.hpp"
#include "redset/shape.hpp"

namespace scr::redset {

// Left neighbours whose metadata a member's header carries.
int header_width(const Set& set);

// This member's DESC entry: {DESC = set.desc(), FILE/..., FILES}.
kv::Tree member_entry(const Set& set, kv::Tree files);

// GROUP, RANK and DESC/<r> = entries[r], for the header of `member`.
// The entries are moved into the header (pass a copy to keep them).
kv::Tree header_with(const Set& set, std::map<int, kv::Tree> entries);
kv::Tree header_with(const SetShape& shape, int member, std::map<int, kv::Tree> entries);

// Collective over the set: own_entry of this member and those of its `width`
// left neighbours, keyed by set rank.
std::map<int, kv::Tree> gather_left_entries(const Set& set, kv::Tree own_entry, int width);

// The header read back from this member's redundancy file belongs to this
// member of this set, and carries its neighbours' entries.
Status check_header(const Set& set, const kv::Tree& header);
Status check_header(const SetShape& shape, int member, const kv::Tree& header);

// Files listed in DESC/<member> of a header.
Result<std::vector<FileEntry>> entry_files(const kv::Tree& header, int member);

}  // namespace scr::redset
