// The index half of every route by which a dataset reaches the prefix: the
// job's flush (sync, async, bypass), its salvage of a cached checkpoint at
// restart, scr_scavenge, and scr_index --add/--build. No MPI: the job calls
// these on rank 0 after gathering its processes' file lists, a tool calls
// them in its one process, and both get the same index.
//
// The protocol: plan -> copy -> verify -> mark -> window.
//   begin:  mark_flush_begun   the entry, without COMPLETE and FLUSHED, is
//                              saved before any file is copied;
//   end:    record_flushed     summary.scr written and synced, then (in the
//                              same index edit) COMPLETE and FLUSHED, then
//                              the CURRENT rule, then the prefix window;
//   failed: mark_flush_failed  (the data is known bad: FAILED, never loaded)
//           or forget_dataset  (nothing worth keeping: files and entry gone).
// A crash before the index edit is saved leaves the dataset not loadable and
// the previous CURRENT in force; the index is replaced atomically.
//
// The CURRENT rule (choose_current): a checkpoint just marked COMPLETE and
// FLUSHED becomes CURRENT unless CURRENT already names a loadable checkpoint
// with a larger id (a newer one). So a job's new checkpoint always becomes
// CURRENT, a scavenge of an older dataset never moves CURRENT off a newer
// loadable one, and a dataset marked FAILED never becomes CURRENT.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/file_lock.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

// What marking does beyond COMPLETE and FLUSHED.
struct MarkPolicy {
  bool choose_current = true;  // apply the CURRENT rule
  int prefix_size = 0;         // SCR_PREFIX_SIZE for the window; 0: no window
};

// The flush has begun: the entry exists and is not loadable.
void mark_flush_begun(PrefixIndex& idx, const kv::Tree& desc);

// summary.scr of dataset `desc`: DSET, RANKS = writers, RANK/<r> = lists[r]
// ({FILES, FILELIST, REDFILE}). Durable when this returns.
Status write_summary(io::Env& env, const std::string& prefix, const kv::Tree& desc, int writers,
                     std::map<int, kv::Tree> lists);

// The dataset's summary is in place: COMPLETE, FLUSHED, SIZE = bytes, older
// entries of its name dropped (their files stay), then the CURRENT rule and
// the window, as `policy` says. Returns whether the dataset is now CURRENT.
bool mark_flushed(io::Env& env, const std::string& prefix, PrefixIndex& idx, const kv::Tree& desc,
                  int64_t bytes, const MarkPolicy& policy);

// write_summary, then mark_flushed: the end of every flush.
Result<bool> record_flushed(io::Env& env, const std::string& prefix, PrefixIndex& idx,
                            const kv::Tree& desc, int writers, std::map<int, kv::Tree> lists,
                            int64_t bytes, const MarkPolicy& policy);

// The CURRENT rule above, for dataset `id`; returns whether it is CURRENT.
bool choose_current(PrefixIndex& idx, int id);

// The dataset's data is bad: it stays in the index, never loaded.
void mark_flush_failed(PrefixIndex& idx, int id);
// The flush left nothing worth keeping: its files, its .scr directory and its
// entry go (CURRENT too, if it named it).
void forget_dataset(io::Env& env, const std::string& prefix, PrefixIndex& idx, int id);

// Load the index, apply edit (Status(PrefixIndex&)) and save it atomically;
// nothing is saved when the edit fails. The caller holds the prefix lock.
template <class F>
Status edit_prefix_index(io::Env& env, const std::string& prefix, F&& edit) {
  SCR_ASSIGN_OR_RETURN(PrefixIndex idx, PrefixIndex::load(env, prefix));
  SCR_TRY(edit(idx));
  return idx.save(env);
}

// The prefix lock (prefix_lock_path), taken without waiting, as a job's rank
// 0 holds it for the job's life: one editor of an index at a time. Held by
// another: Errc::bad_state naming the holder. Where the file system has no
// flock: no lock and no error.
Result<std::optional<io::FileLock>> lock_prefix_index(io::Env& env, const std::string& prefix);

}  // namespace scr::rt
