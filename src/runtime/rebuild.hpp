// Rebuild at SCR_Init (docs/design.md#scr_init): walk the datasets found
// in the caches of all nodes, oldest first; for each, agree on its descriptor
// and on the redundancy descriptor it was written with (not today's
// configuration), move files to the nodes where their owner ranks now run,
// rebuild what was lost with that scheme, or delete it from cache on every
// node when it cannot be rebuilt.
#pragma once

#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"
#include "runtime/prefix/event_log.hpp"

namespace scr::rt {

// Collective. Reads the filemaps of every node, leaves the catalog
// holding only complete, rebuilt datasets of this rank and
// reserves their dataset and checkpoint ids. A cache written by a job with a
// different number of processes is not used (and deleted).
// Checkpoints the filemaps list as read in place from the prefix (written
// with cache bypass, or fetched with SCR_FETCH_BYPASS) hold nothing in cache.
// The newest one written with cache bypass is returned in `in_place` (0:
// none) and its entry stays in this process's own filemap, for the caller to
// check it in the prefix or forget it; every other such entry is dropped.
Status rebuild_cache(const Job& job, CacheCatalog& cache, EventLog& events, int* in_place);

// Collective: delete everything this node's processes find in cache. Fails
// (agreed) when a process cannot write its emptied filemap.
Status purge_cache(const Job& job, CacheCatalog& cache);

}  // namespace scr::rt
