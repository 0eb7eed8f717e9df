// Flush: copy a cached dataset to the prefix directory.
//
// Order of steps (crash safety): the index first records the dataset as
// incomplete (begin_flush); then every process copies its files to the
// paths the application named (a name that an older dataset's file holds
// via a temporary, renamed only once every process got through) and the
// redundancy files into .scr/scr.dataset.<id>/ (run_copies in
// runtime/prefix/flush_copy.hpp, which touches no MPI and may run in a
// background thread); then rank 0 gathers the file
// lists and records the flush (end_flush). The index marking is the shared,
// MPI-free protocol of runtime/prefix/flush_protocol.hpp, which the tools use too;
// this file adds the job's collectives around it.
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cache/catalog.hpp"
#include "runtime/job/job.hpp"
#include "runtime/prefix/event_log.hpp"
#include "runtime/prefix/flush_copy.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "runtime/prefix/prefix_index.hpp"

namespace scr::rt {

FlushJob plan_flush(const Settings& s, const CacheCatalog& cache, int id);
// The same for the files one filemap lists (this process's, or one adopted
// from a rank of an earlier job).
FlushJob plan_copies(const Settings& s, const CacheCatalog& cache, const Filemap& fm, int id);
// Collective: note the directories the flush would make (note_new_dirs),
// then mark the dataset incomplete in the index.
Status begin_flush(const Job& job, FlushJob& flush);
// Collective: agree on the copies; when every process's got through, the
// summary is written and the dataset marked flushed, then each process
// renames the temporaries it held back over the older files of the same
// names (`deferred`). When any copy failed, or the record did, the
// temporaries are removed instead and the older files stay untouched, and
// so are the files this process wrote in place under new names (`placed`,
// run_copies' `finished`), with the directories made for the flush (never
// one that was there before): left behind, they would hold the prefix's space
// for a dataset the index never lists, so that the next flush, one that
// would fit, fails too.
Status end_flush(const Job& job, CacheCatalog& cache, EventLog& events, const FlushJob& flush,
                 const Result<kv::Tree>& mine, Deferred& deferred, const std::vector<std::string>& placed = {});
// Collective: the held-back replacements of a dataset every process copied,
// put in place on every process (or, if that fails anywhere, those left
// removed), before anything records the dataset as flushed: for a rebuild
// in the prefix that must read the copies at their names.
Status replace_deferred_everywhere(const Job& job, Deferred& deferred);
// Collective, after recording dataset `id` failed: the held-back copies put
// in place if the index holds the record after all, removed if it does not,
// and left listed for the next SCR_Init when the index cannot be read.
// Returns whether the index does not hold the record (the copies went).
bool settle_unrecorded(const Job& job, int id, Deferred& deferred);
// Collective: the same once the index records the dataset as flushed;
// what a process could not rename stays listed for the next SCR_Init,
// which finishes it (a warning says so).
void place_recorded_copies(const Job& job, Deferred& deferred);
// Collective, at SCR_Init before anything copies into the prefix (the
// salvage of a cache of another size): the lists and temporaries a killed
// flush left settled as the index says (sweep_deferred_lists).
void sweep_killed_flushes(const Job& job);
// How this job marks a flushed dataset: the CURRENT rule, and its
// SCR_PREFIX_SIZE window.
MarkPolicy job_mark_policy(const Settings& s);
// Collective: rank 0 records dataset `desc` (record_flushed, with `lists`,
// the writers' summary entries it gathered, and this job's policy); every
// process gets the outcome. A record that fails has taken itself back.
Status record_flush(const Job& job, const kv::Tree& desc, int writers, std::map<int, kv::Tree> lists,
                    int64_t bytes);

// Collective, synchronous: all three steps.
Status flush_dataset(const Job& job, CacheCatalog& cache, EventLog& events, int id);

// Should dataset id be flushed now (outputs always; checkpoints every
// SCR_FLUSH checkpoints)?
bool flush_due(const Settings& s, const DatasetInfo& info);

}  // namespace scr::rt
