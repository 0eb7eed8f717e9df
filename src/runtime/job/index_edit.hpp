// Rank 0 reads the prefix index, applies an edit and saves it atomically
// (edit_prefix_index, as the tools do); every process gets the same
// outcome. The one way the runtime changes the index. Rank 0 holds the
// prefix lock (lock_prefix_index's) from SCR_Init on, so no tool edits the
// index meanwhile.
#pragma once

#include "runtime/job/job.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

// edit: Status(PrefixIndex&). Nothing is saved when it fails.
template <class F>
Status edit_index(const Job& job, F&& edit) {
  Status st;
  if (job.rank() == 0) st = edit_prefix_index(job.fs(), job.settings.prefix, edit);
  return mpi::agree(job.world, st);
}

}  // namespace scr::rt
