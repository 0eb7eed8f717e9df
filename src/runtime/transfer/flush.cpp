#include "runtime/transfer/flush.hpp"

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "mpi/turns.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {

FlushJob plan_flush(const Settings& s, const CacheCatalog& cache, int id) {
  return plan_copies(s, cache, cache.own(), id);
}

FlushJob plan_copies(const Settings& s, const CacheCatalog& cache, const Filemap& fm, int id) {
  FlushJob job = plan_copies(fm, id, cache.dataset_dir(fm, id), s.prefix);
  job.crc = s.crc_on_flush;
  job.piece_size = s.piece_size;
  job.keep_meta = s.copy_metadata;
  return job;
}

Status begin_flush(const Job& job, FlushJob& flush) {
  // Noted on every process before the index edit agrees, so before any
  // process makes a directory for the flush: a directory shared by several
  // processes' files is noted by each of them, and the last to empty it
  // when the flush is taken back removes it.
  note_new_dirs(job.fs(), job.settings.prefix, flush);
  // The index is the first thing a flush writes: a prefix that cannot take
  // it (read-only, full) fails here, and the message says what was at stake.
  return edit_index(job,
                    [&](PrefixIndex& idx) {
                      mark_flush_begun(idx, flush.desc);
                      return Status::Ok();
                    })
      .with_context("recording dataset " + DatasetInfo::from_tree(flush.desc).name + " in the prefix index");
}

Status replace_deferred_everywhere(const Job& job, Deferred& deferred) {
  Status st = mpi::agree(job.world, replace_deferred(job.fs(), deferred));
  if (!st.ok()) drop_deferred(job.fs(), deferred);
  return st;
}

namespace {

// Local: the files this process wrote in place for a flush that was not
// recorded, and the directories made for the flush that this leaves empty.
// The files had new names (a name an older file held went to a temporary
// instead), so no dataset the index lists needs them. Only the directories
// noted missing when the flush began (begin_flush) are tried, also by a
// process that placed no file, as its copy may have made them; one that
// was there before stays, even when empty.
void remove_placed(const Job& job, const FlushJob& flush, const std::vector<std::string>& placed) {
  io::remove_files_and_made_dirs(job.fs(), job.settings.prefix, placed, flush.new_dirs);
}

// Collective: what the prefix index says of dataset `id`, read by rank 0
// for every process, so that all act on one reading of it.
RecordVerdict agreed_verdict_of_record(const Job& job, int id) {
  int verdict = static_cast<int>(RecordVerdict::unknown);
  if (job.rank() == 0) verdict = static_cast<int>(verdict_of_record(job.fs(), job.settings.prefix, id));
  mpi::bcast_int(job.world, verdict, 0);
  return static_cast<RecordVerdict>(verdict);
}

}  // namespace

bool settle_unrecorded(const Job& job, int id, Deferred& deferred) {
  // One verdict for every process, so that no process drops copies the
  // index names while another's are put in place.
  switch (agreed_verdict_of_record(job, id)) {
    case RecordVerdict::recorded: place_recorded_copies(job, deferred); break;
    case RecordVerdict::not_recorded: drop_deferred(job.fs(), deferred); return true;
    case RecordVerdict::unknown: deferred.keep_listed(); break;
  }
  return false;
}

void place_recorded_copies(const Job& job, Deferred& deferred) {
  // What could not be renamed stays listed, never dropped: the index names
  // the new files, and the next SCR_Init finishes the renames.
  Status st = mpi::agree(job.world, replace_deferred(job.fs(), deferred));
  if (!st.ok() && job.rank() == 0)
    log::warn("a flushed dataset's files could not all replace the older files of their names (" + st.message() +
              "); the next SCR_Init finishes that");
}

void sweep_killed_flushes(const Job& job) {
  // Only one job uses a prefix at a time: every list there is a leftover.
  if (job.rank() == 0) sweep_deferred_lists(job.fs(), job.settings.prefix);
  job.world.barrier();
}

Status end_flush(const Job& job, CacheCatalog& cache, EventLog& events, const FlushJob& flush,
                 const Result<kv::Tree>& mine, Deferred& deferred, const std::vector<std::string>& placed) {
  DatasetInfo info = DatasetInfo::from_tree(flush.desc);
  Status copied = mpi::agree(job.world, mine.status());
  if (!copied.ok()) {
    drop_deferred(job.fs(), deferred);
    remove_placed(job, flush, placed);
  }
  SCR_TRY(copied.with_context("flush of dataset " + info.name));
  int64_t my_bytes = 0;
  if (auto files = summary_files(*mine))
    for (const auto& f : *files)
      if (!f.shared) my_bytes += static_cast<int64_t>(f.size);  // a shared file counts once
  int64_t bytes = mpi::sum(job.world, my_bytes);
  // Gather every process's file list at rank 0 for the summary.
  auto lists = mpi::gather_trees(job.world, *mine, 0);
  Status recorded = record_flush(job, flush.desc, job.ranks(), std::move(lists), bytes);
  if (!recorded.ok()) {
    if (settle_unrecorded(job, flush.id, deferred)) remove_placed(job, flush, placed);
    return recorded;
  }
  // Recorded: the copies held back now replace the older files of their
  // names (a job killed before all did leaves the rest to the next
  // SCR_Init, deferred.hpp).
  place_recorded_copies(job, deferred);
  if (cache.has(flush.id)) {
    SCR_TRY(cache.transition(flush.id, CacheState::flushed));
    SCR_TRY(cache.commit_agreed(job.world));
    // An output-only dataset has reached the prefix; it need not stay cached.
    if (!info.is_checkpoint()) SCR_TRY(mpi::agree(job.world, delete_cached(job, cache, flush.id)));
  }
  if (job.rank() == 0)
    log::info("flushed dataset " + info.name + " (" + str::format_bytes(static_cast<uint64_t>(bytes)) + ")");
  events.record({"FLUSH", info.name, flush.id, wall_seconds() - flush.started, bytes, flush.how});
  return Status::Ok();
}

MarkPolicy job_mark_policy(const Settings& s) {
  MarkPolicy policy;
  policy.prefix_size = s.prefix_size;
  return policy;
}

Status record_flush(const Job& job, const kv::Tree& desc, int writers, std::map<int, kv::Tree> lists,
                    int64_t bytes) {
  Status st;
  if (job.rank() == 0)
    st = record_flushed(job.fs(), job.settings.prefix, desc, writers, std::move(lists), bytes,
                        job_mark_policy(job.settings))
             .status();
  return mpi::agree(job.world, st);
}

Status flush_dataset(const Job& job, CacheCatalog& cache, EventLog& events, int id) {
  FlushJob flush = plan_flush(job.settings, cache, id);
  SCR_TRY(begin_flush(job, flush));
  // SCR_FLUSH_WIDTH processes copy at a time; a copy's error is agreed on
  // in end_flush like any other.
  Result<kv::Tree> mine = Status(Errc::io_error, "flush of dataset " + std::to_string(id) + " did not run");
  Deferred deferred;
  std::vector<std::string> placed;
  SCR_TRY(mpi::in_turns(job.world, job.settings.flush_width, [&] {
    mine = run_copies(job.fs(), flush, job.settings.prefix, deferred, &placed);
    return Status::Ok();
  }));
  return end_flush(job, cache, events, flush, mine, deferred, placed);
}

bool flush_due(const Settings& s, const DatasetInfo& info) {
  if (info.is_output()) return true;
  return s.flush > 0 && info.ckpt > 0 && info.ckpt % s.flush == 0;
}

}  // namespace scr::rt
