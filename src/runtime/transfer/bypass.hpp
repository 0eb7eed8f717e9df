// Cache bypass (SCR_CACHE_BYPASS=1, SCR 3.1's default, or BYPASS=1 on a
// descriptor): the application writes its files straight to their place in
// the prefix directory. No cache, no redundancy; Complete checksums the files
// where they lie and records the dataset as complete and flushed, through the
// same summary-and-index step a flush from cache ends with.
//
// Several processes, on any nodes, may route the same name: one shared
// (N-to-1) file. Its lowest routing rank checksums it; the others record its
// size only.
#pragma once

#include <set>
#include <string>

#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"
#include "runtime/prefix/event_log.hpp"

namespace scr::rt {

// Collective: record the dataset in the prefix index as begun (neither
// complete nor flushed), so a job killed while writing never leaves it
// loadable.
Status begin_bypass(const Job& job, int id, const kv::Tree& desc);

// Collective: check every routed file exists, agree on validity, checksum,
// write the summary and mark the dataset complete, flushed (and current for
// a checkpoint). An invalid dataset is marked FAILED in the index.
// `started`: wall seconds when the output phase began (for the event log).
Status complete_bypass(const Job& job, CacheCatalog& cache, EventLog& events, int id,
                       const kv::Tree& desc, const std::set<std::string>& routed, bool valid,
                       double started);

}  // namespace scr::rt
