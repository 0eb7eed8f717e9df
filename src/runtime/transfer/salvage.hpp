// Restart at a different size from the cache. The cached checkpoints of a
// job of another size cannot be used in place: their files belong to ranks
// and redundancy sets of the old job. So the newest checkpoint the old job
// did not flush is first made whole in the prefix, as scr_scavenge does, and
// then offered like any prefix checkpoint of another size (rescale.hpp):
//  1. every process copies the files of the old ranks whose filemaps its
//     node holds (application files to their prefix paths, redundancy files
//     to .scr/scr.dataset.<id>/), each checked against the CRC32C recorded
//     at Complete; a rank whose copy fails counts as lost;
//  2. the offline rebuild (redset/offline.hpp) rebuilds the lost old ranks'
//     files in the prefix from the redundancy files there, with the geometry
//     they were written with; its sets are spread over the new processes,
//     each rebuilt file checked against its recorded CRC32C;
//  3. rank 0 writes the summary (the old process count) and marks the
//     dataset COMPLETE, FLUSHED and CURRENT.
// A checkpoint that cannot be made whole is removed from the prefix again
// and the next older cached one is tried; one already flushed ends the
// search (the prefix holds it): a filemap says so, or the prefix index
// records it although no filemap does (its job died between the flush's
// record and the filemaps' mark), as scr_scavenge skips it.
#pragma once

#include "runtime/cache/distribute.hpp"
#include "runtime/prefix/event_log.hpp"

namespace scr::rt {

// Collective, at SCR_Init, when the cache was written by a job of another
// size (before it is deleted). A checkpoint that cannot be made whole is
// reported and the next older one tried, leaving the prefix as it was. The
// status is an error when the prefix could not take a checkpoint (no space,
// I/O error): the caller must then keep the cache, its only copy.
Status salvage_resized_cache(const Job& job, const CacheCatalog& cache, EventLog& events);

}  // namespace scr::rt
