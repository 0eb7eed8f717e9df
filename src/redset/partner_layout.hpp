// PARTNER's redundancy file layout (docs/formats/redset.md): the header
// carries, besides the common keys, REPLICA/<set rank>/{OFFSET, SIZE} for
// each left neighbour 1..replicas, nearest first; their logical files follow
// the header in that order, OFFSET counted from the start of the data.
#pragma once

#include <cstdint>
#include <map>

#include "common/status.hpp"
#include "kvtree/tree.hpp"
#include "redset/set.hpp"
#include "redset/shape.hpp"
#include "redset/survey.hpp"

namespace scr::redset {

// Bytes of the logical file a DESC entry describes.
Result<uint64_t> entry_size(const kv::Tree& entry);

// The full header of `member` from the DESC entries of it and its left neighbours.
// The entries are moved into the header (pass a copy to keep them).
Result<kv::Tree> partner_header(const Set& set, std::map<int, kv::Tree> entries);
Result<kv::Tree> partner_header(const SetShape& shape, int member, std::map<int, kv::Tree> entries);

// The REPLICA table must be the one the header's own metadata implies, and the
// file must hold all the data it announces.
HeaderCheck replica_check(const Set& set);
HeaderCheck replica_check(const SetShape& shape, int member);

}  // namespace scr::redset
