// What XOR and RS share (docs/formats/redset.md): a header with CHUNK and the
// metadata of `checks` left neighbours, check chunks after the header, and
// the apply and rebuild skeletons around the scheme's pipeline.
#pragma once

#include <functional>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "redset/schemes.hpp"
#include "redset/set.hpp"
#include "redset/survey.hpp"
#include "redset/symbols.hpp"

namespace scr::redset::detail {

// Fills the check chunks from the data chunks; collective over the set.
using Encoder = std::function<Status(SymbolStore& store, uint64_t chunk)>;
// Rebuilds the lost members' symbols; collective over the set.
using Decoder = std::function<Status(SymbolStore& store, uint64_t chunk, const SetLoss& loss)>;

// Collective over the set: header, encode (taking each file's CRC32C into
// `crcs` as it reads), then the redundancy file appears only if every member
// succeeded.
Status apply_coded(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                   const std::string& redfile, const std::string& spare, int checks,
                   std::vector<FileEntry>& own,
                   const Encoder& encode);

// Collective over the set: up to `checks` lost members are rebuilt
// (check_tolerance explains the limit when more are lost).
Survey survey_coded(io::Env& env, const Set& set, const std::string& dir,
                    const std::string& redfile, int checks, Decoder decode, bool files_checked);

}  // namespace scr::redset::detail
