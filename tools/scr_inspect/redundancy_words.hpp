// Redundancy descriptors and redundancy file headers in one line each, for
// the control and cache views (layouts: docs/formats/prefix.md and the
// redset header, docs/formats/redset.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kvtree/tree.hpp"

namespace scr::tools::inspect {

// A redundancy descriptor (TYPE, GROUP/GROUPS, RANK/RANKS, MEMBERS,
// WRANK/WRANKS): "XOR, set 2 of 2, member 2 of 2, world ranks 1,3".
std::string describe_reddesc(const kv::Tree& desc);

// A redundancy file header followed by data_bytes of encoded data: first
// line scheme, set, member and sizes; then one line per set member whose
// file metadata the header carries ("member 2 (world rank 3): a.dat 8208 B").
std::vector<std::string> describe_header(const kv::Tree& header, uint64_t data_bytes);

}  // namespace scr::tools::inspect
