// The one runtime context: everything SCR++ knows about this run, split
// into the Job fixed at SCR_Init (runtime/job/job.hpp) and the run state the
// API calls change. Only the API's state machine (Runtime) holds one; the
// modules below it (runtime/cache, runtime/transfer) take the read-only Job
// and the one part of this state they change (the catalog, the event log,
// the protection sets, a rescaled restart).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/clock.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/event_log.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "runtime/transfer/rescale.hpp"
#include "runtime/transfer/restart_names.hpp"

namespace scr::rt {

enum class Phase { idle, output, restart };

// An output phase in progress: SCR_Start_output to SCR_Complete_output.
struct OutputPhase {
  int id = 0;
  kv::Tree desc;
  const RedDesc* protection = nullptr;
  std::string dir;                       // where its files go: the dataset's cache directory, or the prefix
  std::set<std::string> routed;          // files routed by this process
  std::unordered_set<std::string> dirs;  // directories made for them
};

// A restart phase in progress: SCR_Start_restart to SCR_Complete_restart.
struct RestartPhase {
  std::string name;                       // of the checkpoint
  bool in_prefix = false;                 // read in place there (bypass), not from cache
  std::string dir;                        // where its files are: the dataset's cache directory or the prefix
  std::unordered_set<std::string> files;  // this process's, looked up per route
  BasenameIndex basenames;                // of `files`, for routes by file name only
  // Every file of the checkpoint, over all processes (the extension API's
  // listing), read from the restart file table piece by piece, and how many
  // processes wrote it.
  // At the same size the table is only for the listing: when it could not
  // be written or read (a full or read-only prefix), the restart goes on
  // and the listing calls report why instead.
  Result<RestartTable> listing = RestartTable();
  int writers = 0;
};

// The checkpoints a restart may load, newest first: the first is the one
// SCR_Have_restart offers. Changed only through these calls.
class RestartCandidates {
 public:
  // Replaces the list (the cached checkpoints every process holds).
  void offer(std::vector<int> newest_first) { ids_ = std::move(newest_first); }
  // A checkpoint fetched from the prefix (0: none was).
  void offer_fetched(int id) {
    if (id > 0) ids_.push_back(id);
  }
  // No longer offered: rejected by the application, or deleted.
  void withdraw(int id) { std::erase(ids_, id); }
  void clear() { ids_.clear(); }
  bool empty() const { return ids_.empty(); }
  int front() const { return ids_.front(); }
  const std::vector<int>& ids() const { return ids_; }

 private:
  std::vector<int> ids_;
};

struct Timing {
  double run_start = 0;          // wall seconds at SCR_Init
  double last_checkpoint_end = 0;  // end of the last checkpoint, failed or not; else of SCR_Init
  double checkpoint_total = 0;   // seconds spent in checkpoint phases (outputs only not counted)
  int checkpoints = 0;           // checkpoint phases ended, the divisor of checkpoint_total
  double phase_start = 0;        // start of the current output phase
  int need_calls = 0;            // SCR_Need_checkpoint calls since SCR_Init, as SCR 3.1 counts them
};

struct Context {
  // Fixed at SCR_Init and read-only for the rest of the run; the names
  // below are shorthands into it.
  const Job& job;
  const Settings& settings;
  const Identity& id;
  const mpi::Comm& world;
  const mpi::Comm& node;         // processes sharing this node's storage

  // Mutable run state.
  EventLog events;  // records on rank 0 only (SCR_LOG_ENABLE)
  // This process's cache metadata (its filemap, the filemaps it adopts at
  // SCR_Init, the dataset ids): changed through its verbs only.
  CacheCatalog cache;
  Timing timing;
  bool halt_logged = false;  // the HALT event is recorded once
  // Rank 0: the halt file held a finished job's mark when this run started
  // (SCR_HALT_EXIT then records no reason, as SCR: halt.hpp).
  bool finalized_at_start = false;
  // The checkpoint a fetch tries first: SCR_CURRENT, then the one
  // SCR_Current names.
  std::string current;

  // The phase open, if any: at most one of the two is set.
  std::optional<OutputPhase> output;
  std::optional<RestartPhase> restart;
  Phase phase() const { return output ? Phase::output : restart ? Phase::restart : Phase::idle; }

  // Restart: checkpoints usable for restart, newest first.
  RestartCandidates restart_candidates;
  bool restart_loaded = false;  // a restart completed in this run
  // Set while restart_candidates.front() is a prefix checkpoint written by
  // a job of another size (runtime/transfer/rescale.hpp); it is not in the catalog.
  std::unique_ptr<Rescaled> rescaled;

  // Background flushes in flight (SCR_FLUSH_ASYNC=1). Built over `cache`
  // and `events` above: declared after them, so it is destroyed first.
  std::unique_ptr<AsyncFlusher> flusher;

  // Redundancy sets, one per descriptor, built at SCR_Init and kept for
  // the run (runtime/cache/cache.hpp).
  ProtectionSets sets;

  explicit Context(const Job& job);
  ~Context();
  Context(Context&&) = delete;

  int rank() const { return job.rank(); }
  int ranks() const { return job.ranks(); }
  io::Env& fs() const { return job.fs(); }

  // Waits for the flush of a dataset, for the cache's deletions.
  WaitFlushed wait_flushed() {
    return [this](int id) { return flusher->wait_for(id); };
  }

  // Cache directory of this node for a store.
  std::string cache_dir(const std::string& store) const { return job.cache_dir(store); }
};

}  // namespace scr::rt
