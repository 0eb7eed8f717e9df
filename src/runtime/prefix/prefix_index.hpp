// The index of datasets in the prefix directory: <prefix>/.scr/index.scr,
// shared with SCR 3.1 and stored in its layout (runtime/prefix/scr31/shared_format.hpp);
// SCR++ works on this view of it:
//   DSET/<id>/{NAME, FLAGS, CKPT, CREATED, SIZE, FILES, USER, JOBID, JOBNAME,
//              COMPLETE, FLUSHED, FLUSHED_AT, FAILED, FETCHED}
//   CURRENT = <name of the checkpoint to restart from>
// Only rank 0 of a job (or an operator tool) reads and writes it; every write
// replaces the file atomically (temp, fsync, rename), so a crash leaves the
// old or the new index. A dataset is loadable only with COMPLETE=1,
// FLUSHED=1 and no FAILED mark; an interrupted flush leaves COMPLETE=0.
//
// Per-dataset metadata lives beside it in <prefix>/.scr/scr.dataset.<id>/:
// summary.scr (runtime/prefix/summary.hpp) and the redundancy files of the dataset.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/dataset_table.hpp"

namespace scr::rt {

std::string prefix_scr_dir(const std::string& prefix);
std::string prefix_index_path(const std::string& prefix);
// Makes <prefix>/.scr if missing. It holds the index, the job id and the job
// lock, so it must be our own real directory: a symbolic link or another
// user's directory there is refused before anything is written inside.
Status make_prefix_scr_dir(io::Env& env, const std::string& prefix);
// <prefix>/.scr/job.lock: held by rank 0 of the job using the prefix, and by
// a tool while it changes the index.
std::string prefix_lock_path(const std::string& prefix);
// <prefix>/.scr/nodes.scr: the node count of the job's last run (NODES), as
// SCR 3.1 records it; written at SCR_Init, read and reset by the job commands.
std::string prefix_nodes_path(const std::string& prefix);
std::string prefix_dataset_dir(const std::string& prefix, int id);

// An index no one can read (damaged, or of a version SCR++ does not know)
// would stop every save into the prefix. It is renamed to
// index.scr.unreadable.<seconds since the epoch>, never deleted, so that a
// new index can start: what saves datasets (SCR_Init, scr_scavenge,
// scr_index --add/--build) is not stopped by it. Returns that path, or ""
// when there was nothing to set aside (no index, a readable one, or one
// that cannot be read for an I/O reason: that is not a verdict on the
// file); *why gets the reason it was unreadable. An error when the rename
// failed.
Result<std::string> set_aside_unreadable_index(io::Env& env, const std::string& prefix, std::string* why);

class PrefixIndex : public DatasetTable {
 public:
  // A missing index is an empty one; a damaged one is an error.
  static Result<PrefixIndex> load(io::Env& env, const std::string& prefix);
  // An empty index standing for `prefix`'s unreadable one (a tool that
  // adds to the prefix): the caller sets that one aside before the save.
  static PrefixIndex replacing_unreadable(const std::string& prefix);
  bool replaces_unreadable() const { return replaces_unreadable_; }
  Status save(io::Env& env) const;

  // Create or refresh the entry for a dataset from its descriptor.
  kv::Tree& upsert(const kv::Tree& desc);
  // The newest flushed dataset with this name that is not marked failed,
  // else the newest with it. A recorded flush drops older entries of its
  // name (flush_protocol.hpp), but a flush begun or failed leaves them, and
  // a scavenge that saves an older dataset of a name leaves the newer one
  // listed too.
  std::optional<int> find_name(const std::string& name) const;

  // A dataset's standing in the prefix: its flush begun (files may be
  // missing or partial) or flushed (every file and the summary written);
  // either may be marked failed (its flush failed, or a restart found its
  // files damaged). On disk: COMPLETE and FLUSHED both set when flushed, and
  // FAILED.
  bool flushed(int id) const;
  void mark_begun(int id);
  void mark_flushed(int id);
  bool failed(int id) const;
  void mark_failed(int id);
  bool loadable(int id) const;  // a flushed checkpoint not marked failed

  std::string current() const;
  void set_current(const std::string& name);
  void clear_current();
  // Remove dataset `id`'s entry, as SCR 3.1's scr_index_remove does: when it
  // is CURRENT, CURRENT moves to the newest loadable checkpoint older than it
  // (unset when there is none), so later restarts keep going back from the
  // checkpoint chosen instead of jumping to the newest.
  void forget(int id);

  // Checkpoints to try at fetch, best first: the named one (or CURRENT) when
  // loadable, then the rest newest first.
  std::vector<int> fetch_order(const std::string& preferred) const;

 private:
  std::string path_;
  // The file as read when SCR 3.1's layout (docs/formats/scr31.md), and
  // SCR++'s view of it then: save() keeps what SCR++ did not change.
  kv::Tree read_;
  kv::Tree read_view_;
  // Read from an earlier SCR++'s index: the summaries of its datasets are
  // given SCR 3.1's files at the first save (scr31::adopt_earlier_summary).
  std::string prefix_;
  mutable bool adopt_summaries_ = false;
  bool replaces_unreadable_ = false;
};

}  // namespace scr::rt
