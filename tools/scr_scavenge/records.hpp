// The metadata a scavenge writes, in the runtime flush's order
// (src/runtime/flush.hpp): the index entry without COMPLETE/FLUSHED before
// any file is copied; summary.scr once every file is in place; only then
// the entry COMPLETE and FLUSHED (CURRENT for the newest checkpoint); last,
// FLUSHED in the cached dataset's filemaps. Each file is replaced
// atomically, so a crash leaves the dataset not loadable or fully saved.
#pragma once

#include <map>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "tools/scr_scavenge/node_caches.hpp"

namespace scr::tools::scavenge {

Status mark_incomplete(io::Env& env, const std::string& prefix, const kv::Tree& desc);

// summary.scr: DSET, RANKS, RANK/<r> = ranks[r] ({FILE/..., REDFILE/...}).
Status write_summary(io::Env& env, const std::string& prefix, const CachedDataset& ds,
                     const std::map<int, kv::Tree>& ranks);

// Sets *current when the dataset became CURRENT: a checkpoint newer than
// the loadable one CURRENT names (or CURRENT names none).
Status mark_flushed(io::Env& env, const std::string& prefix, const CachedDataset& ds,
                    uint64_t bytes, bool* current);

// FLUSHED in every filemap that lists the dataset, read afresh from disk (a
// filemap may list several datasets); a later run in this allocation then
// does not flush it again. Returns the filemaps that could not be updated.
std::vector<std::string> mark_filemaps_flushed(io::Env& env, const CachedDataset& ds);

}  // namespace scr::tools::scavenge
