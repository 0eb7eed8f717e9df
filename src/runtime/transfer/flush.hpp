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
// Collective: mark the dataset incomplete in the index.
Status begin_flush(const Job& job, const FlushJob& flush);
// Collective: agree on the copies; when every process's got through, each
// renames the temporaries it held back over the older files of the same
// names (`deferred`), then the summary is written and the dataset marked
// flushed. When any failed, the temporaries are removed instead and the
// older files stay untouched.
Status end_flush(const Job& job, CacheCatalog& cache, EventLog& events, const FlushJob& flush,
                 const Result<kv::Tree>& mine, Deferred& deferred);
// Collective: the held-back replacements of a dataset every process copied,
// put in place on every process (or, if that fails anywhere, those left
// removed). Before anything records the dataset as flushed.
Status replace_deferred_everywhere(const Job& job, Deferred& deferred);
// How this job marks a flushed dataset: the CURRENT rule, and its
// SCR_PREFIX_SIZE window.
MarkPolicy job_mark_policy(const Settings& s);

// Collective, synchronous: all three steps.
Status flush_dataset(const Job& job, CacheCatalog& cache, EventLog& events, int id);

// Should dataset id be flushed now (outputs always; checkpoints every
// SCR_FLUSH checkpoints)?
bool flush_due(const Settings& s, const DatasetInfo& info);

}  // namespace scr::rt
