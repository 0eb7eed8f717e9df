// Flush: copy a cached dataset to the prefix directory, synchronously.
//
// Order of steps (crash safety): the index first records the dataset as
// incomplete; then every process copies its files to the paths the
// application named (each via a temporary and rename) and the redundancy
// files into .scr/scr.dataset.<id>/; then rank 0 writes the summary with
// per-file sizes and CRC32C; only then the index marks it COMPLETE and
// FLUSHED (and CURRENT for a checkpoint). A crash at any point leaves the
// previous current dataset in force and this one never loadable.
#pragma once

#include "runtime/context.hpp"

namespace scr::rt {

// Collective.
Status flush_dataset(Context& ctx, int id);

// Collective: should dataset id be flushed now (outputs always; checkpoints
// every SCR_FLUSH checkpoints)?
bool flush_due(const Context& ctx, const DatasetInfo& info);

}  // namespace scr::rt
