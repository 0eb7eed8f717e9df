// Redistribution at SCR_Init when ranks moved to other nodes: each rank must
// find its cached files on its own node before the rebuild (docs/design.md#scr_init).
//
// 1. scatter_filemaps: the storage owner of each node (node rank 0) reads
//    every filemap in the node's control directory, including those of ranks
//    that now run elsewhere, gives each rank on this node its own and spreads
//    the rest evenly over the node's processes ("adopted" filemaps).
// 2. distribute_files: for one dataset, every rank finds who holds a complete
//    copy of its files (itself, a process on its node, or one elsewhere) and
//    the files are moved there, in rounds in which a process sends to at most
//    one other. Files of ranks on the same node need no copy at all.
#pragma once

#include <vector>

#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"

namespace scr::rt {

// Collective. Hands the catalog this process's filemap and
// the filemaps it adopts (CacheCatalog::take_filemaps); the catalog releases
// the adopted ones when the restart is done with them.
void scatter_filemaps(const Job& job, CacheCatalog& cache);

// Collective: the descriptor of dataset `id`, from the lowest rank holding
// one. Errc::not_found when no process does.
Result<kv::Tree> agree_descriptor(const Job& job, const CacheCatalog& cache, int id);

// Collective. Moves dataset `id`'s files to the nodes of their owner ranks.
// Afterwards the catalog holds this rank's entry when any copy survived
// (committed on every process).
Status distribute_files(const Job& job, CacheCatalog& cache, int id);

}  // namespace scr::rt
