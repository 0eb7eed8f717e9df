// What a scavenge records beyond the prefix index (whose marking is the
// shared protocol of runtime/prefix/flush_protocol.hpp): once a dataset is COMPLETE
// and FLUSHED there, FLUSHED in the cached dataset's filemaps too.
#pragma once

#include <string>
#include <vector>

#include "io/env.hpp"
#include "tools/scr_scavenge/node_caches.hpp"

namespace scr::tools::scavenge {

// FLUSHED in every filemap that lists the dataset, read afresh from disk (a
// filemap may list several datasets); a later run in this allocation then
// does not flush it again. Returns the filemaps that could not be updated.
std::vector<std::string> mark_filemaps_flushed(io::Env& env, const CachedDataset& ds);

// FLUSHED for dataset `id` in the filemap at `path` (of `rank`), if it
// still lists it.
Status mark_filemap_flushed(io::Env& env, const std::string& path, int rank, int id);

}  // namespace scr::tools::scavenge
