// Fetch: load a checkpoint from the prefix into cache when the cache holds
// none. Tries the current checkpoint (or SCR_CURRENT), then older ones; a
// dataset whose files are missing or fail their CRC32C is marked FAILED in
// the index and the next older one is tried.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/cache/cache.hpp"
#include "runtime/prefix/event_log.hpp"
#include "runtime/transfer/rescale.hpp"

namespace scr::rt {

// What a fetch changes: the cache it fills and protects (with the sets
// built at SCR_Init), the event log, and, for a checkpoint written by a job
// of another size, the restart prepared for it (runtime/transfer/rescale.hpp)
// instead of a cached copy.
struct FetchInto {
  CacheCatalog& cache;
  ProtectionSets& sets;
  EventLog& events;
  std::unique_ptr<Rescaled>& rescaled;
};

// Collective. Tries `current` (SCR_CURRENT, or the checkpoint SCR_Current
// named) first. Returns the id of the loaded dataset, or 0 when none could be
// loaded.
Result<int> fetch_checkpoint(const Job& job, FetchInto& into, const std::string& current);

// Collective: loads dataset `id` from the prefix as fetch_checkpoint loads
// each it tries (a dataset written with cache bypass, or any with
// SCR_FETCH_BYPASS, is read in place and checked there), recording the
// outcome in the index and the event log. True when it was loaded.
// Loaded, it becomes CURRENT; unless `rolls_back`, not over a newer
// loadable checkpoint CURRENT names (the flush's rule, choose_current).
bool fetch_dataset(const Job& job, FetchInto& into, int id, bool rolls_back);

// Collective: the highest dataset and checkpoint ids recorded in the prefix
// index (SCR 3.1's datasets included), and any dataset directory in the
// prefix's .scr, so new datasets never reuse an id. Rank 0 also warns when
// SCR_CURRENT names no checkpoint this job could restart from (dropped,
// deleted, misspelt, an output dataset, or failed), naming the value and the
// checkpoints there are; the restart then goes on from the newest one that
// loads, as SCR's does. `cached` are the checkpoints the caches hold, newest
// first.
void learn_prefix(const Job& job, CacheCatalog& cache, const std::vector<int>& cached);

// Rank 0, at SCR_Init: a prefix index that cannot be read (damaged, or of a
// version SCR++ does not know) would make every later flush fail. It is
// renamed to index.scr.unreadable.<seconds since the epoch>, never deleted,
// a new index starts, and the operator is told once how to add the older
// datasets back (scr_index --build). An index that cannot be read for an
// I/O reason is left alone: that is not a verdict on the file.
void set_aside_unreadable_index(const Job& job);

}  // namespace scr::rt
