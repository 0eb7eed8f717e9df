// The index half of every route by which a dataset reaches the prefix: the
// job's flush (sync, async, bypass), its salvage of a cached checkpoint at
// restart, scr_scavenge, and scr_index --add/--build. No MPI: the job calls
// these on rank 0 after gathering its processes' file lists, a tool calls
// them in its one process, and both get the same index.
//
// The protocol: plan -> copy -> verify -> mark -> window.
//   begin:  mark_flush_begun   the entry, without COMPLETE and FLUSHED, is
//                              saved before any file is copied;
//   end:    record_flushed     the summary files written and synced, then
//                              COMPLETE and FLUSHED, then the CURRENT rule,
//                              the index saved; then the prefix window;
//   failed: mark_flush_failed  (the data is known bad: FAILED, never loaded)
//           or forget_dataset  (nothing worth keeping: files and entry gone).
// A crash before the index edit is saved leaves the dataset not loadable and
// the previous CURRENT in force; the index is replaced atomically.
//
// A record that fails (no space or an I/O error for a summary file or the
// index) takes itself back: the summary files it wrote go, a file of the
// same name that was there before is back as it was, and the entry goes
// too, as after a salvage that fails: with its files taken back by the
// route (the copies are the route's to remove) nothing of the dataset is
// left worth keeping, and the data itself is not known bad, so it is not
// marked FAILED. SCR 3.1 leaves the entry incomplete (COMPLETE = 0);
// neither is ever loaded (docs/compat.md). Two cases keep the entry: the
// record reached the index after all (its last step failed: the route's
// copies stay, deferred.hpp's verdict_of_record), and a dataset the index
// had already recorded, flushed again (see mark_flush_begun), which stays
// recorded with its summary as it was.
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

// The flush has begun: the entry exists and is not loadable. A dataset the
// index already records as flushed (the same name and creation time) keeps
// its record meanwhile: it is being flushed again because its cached copy
// was never marked flushed (a job killed between the record and that mark),
// and its files stay whole while the copies are held back (deferred.hpp).
void mark_flush_begun(PrefixIndex& idx, const kv::Tree& desc);
// Whether the index records this very dataset (its id, name and creation
// time) as flushed: not another dataset that took the same id in a prefix
// of another history.
bool records_flush_of(const PrefixIndex& idx, const kv::Tree& desc);

// In the loaded index: COMPLETE, FLUSHED, SIZE = bytes, older entries of
// its name dropped (their files stay), then the CURRENT rule as `policy`
// says (not the window). Returns whether the dataset is now CURRENT.
// scr_index adopts a dataset whose summary is in place with it.
bool mark_flushed(PrefixIndex& idx, const kv::Tree& desc, int64_t bytes, const MarkPolicy& policy);

// The end of every flush that writes the summary, in one process holding
// the prefix lock (rank 0 of a job, or a tool): the summary of dataset
// `desc` (DSET, RANKS = writers, RANK/<r> = lists[r] = {FILES, FILELIST,
// REDFILE}: summary.scrpp, then SCR 3.1's rank2file map and summary.scr)
// staged and put in place, durable; then mark_flushed and the index saved;
// then the window (SCR_PREFIX_SIZE, which saves the index again before it
// deletes any file): a record that does not land deletes nothing. Loads and saves the
// index itself: never call it inside edit_prefix_index. On failure the
// record is taken back as the comment at the top says. Returns whether the
// dataset is now CURRENT.
Result<bool> record_flushed(io::Env& env, const std::string& prefix, const kv::Tree& desc, int writers,
                            std::map<int, kv::Tree> lists, int64_t bytes, const MarkPolicy& policy);

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
