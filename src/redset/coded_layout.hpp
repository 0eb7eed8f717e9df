// The XOR/RS redundancy file layout (docs/formats/redset.md): the common
// header plus CHUNK, then the member's `checks` check chunks, row j at
// data_offset + j * CHUNK. Shared by apply, the MPI rebuild and the offline
// rebuild, so a rebuilt file is byte for byte the one that was lost.
#pragma once

#include <cstdint>
#include <map>

#include "kvtree/tree.hpp"
#include "redset/shape.hpp"
#include "redset/survey.hpp"

namespace scr::redset {

// The header of `member`: DESC entries of itself and its left neighbours, and CHUNK.
kv::Tree coded_header(const SetShape& shape, int member, std::map<int, kv::Tree> entries,
                      uint64_t chunk);

// CHUNK is present and the file holds `checks` chunks of it after the header.
HeaderCheck chunk_check(int checks);

}  // namespace scr::redset
