// Asynchronous flush (SCR_FLUSH_ASYNC=1).
//
// Threading model: each process copies its own files to the prefix in one
// background std::thread per dataset. That thread makes no MPI calls and
// touches only its FlushJob (fixed when the flush starts) and the Env. A
// second thread still needs the FUNNELED thread level of MPI (SINGLE promises
// only one thread in the process): SCR_Init turns the async flush off, with a
// warning, when the application's MPI provides less. Every collective
// step (marking the index, agreeing that all processes finished, writing the
// summary) runs on the application's thread inside SCR calls:
//   - start() after SCR_Complete_output has applied the redundancy scheme;
//   - poll(wait=false) in SCR_Start_output, SCR_Complete_output and
//     SCR_Need_checkpoint finalizes, oldest first, the flushes done
//     everywhere up to the first one that is not, without waiting for it;
//   - poll(wait=true) waits for them: in SCR_Finalize, before a dataset in
//     flight is deleted, in SCR_Current and SCR_Drop (which edit the index
//     a flush in flight would edit after them), and in SCR_Start_output of
//     a dataset written straight into the prefix (cache bypass), whose
//     names a flush in flight may be copying to.
// At most SCR_FLUSH_ASYNC_MAX flushes are in flight; starting one more first
// waits for the oldest, and for any in flight that copies to one of its
// names (checkpoints that reuse their paths: each flush holds back its copy
// in the one temporary beside the name, prefix/deferred.hpp).
// SCR_FLUSH_ASYNC_BW caps the bytes per second each node's processes copy
// together. poll() records flushes in the order they started, as SCR does,
// so that SCR_PREFIX_SIZE's window sees each record after the older ones
// (a flight finished early for its names, or before its dataset is
// deleted, is recorded out of turn).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"
#include "runtime/prefix/event_log.hpp"
#include "runtime/transfer/flush.hpp"

namespace scr::rt {

class AsyncFlusher {
 public:
  // The flusher marks datasets in `cache` and records events in `events`;
  // both outlive it (the run state owning the flusher owns them too).
  AsyncFlusher(const Job& job, CacheCatalog& cache, EventLog& events)
      : job_(job), cache_(cache), events_(events) {}
  // Joins threads still running; their results are dropped, and with them
  // the replacements they held back (the older files stay).
  ~AsyncFlusher();
  AsyncFlusher(const AsyncFlusher&) = delete;
  AsyncFlusher& operator=(const AsyncFlusher&) = delete;

  // Collective: mark the dataset in the index and start copying.
  Status start(int id);
  // Collective: finalize, oldest first, the flushes every process has
  // finished, up to the first one some process has not; with wait, all of
  // them, waiting for each.
  Status poll(bool wait);
  // Whether this process's copy of dataset id is done (its record is not).
  bool copied(int id) const {
    auto it = flights_.find(id);
    return it != flights_.end() && it->second->done.load();
  }
  // Collective: wait for and finalize the flush of one dataset, if in flight.
  Status wait_for(int id);

  bool in_flight(int id) const { return flights_.count(id) > 0; }
  size_t count() const { return flights_.size(); }
  // Bytes this process has copied for dataset id so far.
  uint64_t progress(int id) const;

 private:
  struct Flight {
    FlushJob job;
    std::atomic<uint64_t> copied{0};
    std::atomic<bool> done{false};
    Result<kv::Tree> result = Status(Errc::io_error, "flush still running");
    Deferred deferred;  // the copy's held-back replacements (deferred.hpp)
    std::vector<std::string> placed;  // what it wrote in place under new names
    std::thread thread;
  };
  Status finish(int id);
  // Collective: finish the flights that copy to a destination `next` also
  // copies to, on any process.
  Status wait_for_same_names(const FlushJob& next);
  const Job& job_;
  CacheCatalog& cache_;
  EventLog& events_;
  std::map<int, std::unique_ptr<Flight>> flights_;
};

}  // namespace scr::rt
