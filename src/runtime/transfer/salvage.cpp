#include "runtime/transfer/salvage.hpp"

#include <climits>
#include <map>
#include <set>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "mpi/turns.hpp"
#include "redset/offline.hpp"
#include "runtime/cache/outcome.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/prefix_rebuild.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/transfer/flush.hpp"

namespace scr::rt {
namespace {

namespace offline = redset::offline;

// The newest complete checkpoint any process holds below `below`, or 0.
int next_candidate(const Job& job, const CacheCatalog& cache, int below) {
  int64_t best = 0;
  for (const Filemap* fm : cache.held())
    for (int id : fm->ids()) {
      auto info = fm->info(id);
      if (id < below && id > best && fm->state(id) != CacheState::routed && info && info->is_checkpoint())
        best = id;
    }
  return static_cast<int>(mpi::max(job.world, best));
}

// How many processes wrote dataset `id` (its redundancy descriptors say).
int old_size(const Job& job, const CacheCatalog& cache, int id) {
  int64_t n = 0;
  for (const Filemap* fm : cache.held())
    if (const kv::Tree* descs = fm->member_descs(id))
      for (const auto& [w, d] : descs->children()) n = std::max<int64_t>(n, d->int_or("WRANKS", 0));
  return static_cast<int>(mpi::max(job.world, n));
}

// Step 1, local: copy the old ranks' files this process holds. Returns
// OLD/<rank> = {FILE/..., REDFILE/...} for each copied rank, SUSPECT/<rank>
// for each whose copy failed, and NOROOM = 1 when a copy failed for the
// prefix's sake (no space, I/O error) rather than the cached file's.
kv::Tree copy_held(const Job& job, const CacheCatalog& cache, int id) {
  kv::Tree out;
  for (const Filemap* fm : cache.held()) {
    if (!fm->has(id)) continue;
    std::string rank = std::to_string(fm->owner());
    auto copied = run_copies(job.fs(), plan_copies(job.settings, cache, *fm, id), job.settings.prefix);
    if (copied) {
      out.child("OLD").put(rank, std::move(copied).value());
    } else {
      log::warn("the cached files of old rank " + rank + " cannot be saved (" + copied.status().message() +
                "); rebuilding them from redundancy data");
      out.child("SUSPECT").set_int(rank, 1);
      Errc code = copied.status().code();
      if (code == Errc::no_space || code == Errc::io_error) out.set_int("NOROOM", 1);
    }
  }
  return out;
}

// Everyone's step-1 results, merged, on every process.
kv::Tree gather_copied(const Job& job, kv::Tree mine) {
  auto got = mpi::gather_trees(job.world, mine, 0);
  kv::Tree all;
  if (job.rank() == 0)
    for (auto& [r, t] : got)
      for (const char* key : {"OLD", "SUSPECT"})
        if (const kv::Tree* part = t.get(key))
          for (const auto& [rank, entry] : part->children()) all.child(key).put(rank, *entry);
  mpi::bcast_tree(job.world, all, 0);
  return all;
}

// Step 2: the lost old ranks' files, rebuilt in the prefix; the sets to
// rebuild are dealt out to the processes in turn. Returns the summary
// entries of the ranks this process rebuilt.
Result<kv::Tree> rebuild_lost(const Job& job, int id, const kv::Tree& copied, int writers) {
  std::string meta_dir = prefix_dataset_dir(job.settings.prefix, id);
  std::map<int, offline::Place> places;
  std::set<int> suspects;
  if (const kv::Tree* old = copied.get("OLD"))
    for (const auto& [rank, entry] : old->children()) {
      auto r = str::parse_int(rank);
      const kv::Tree* red = entry->get("REDFILE");
      if (r && red && red->size() == 1)
        places[static_cast<int>(*r)] = {job.settings.prefix, io::path::join(meta_dir, red->children().begin()->first)};
    }
  if (const kv::Tree* bad = copied.get("SUSPECT"))
    for (const auto& [rank, entry] : bad->children())
      if (auto r = str::parse_int(rank)) suspects.insert(static_cast<int>(*r));
  offline::Survey survey = offline::survey(job.fs(), places, suspects);
  Status st = survey.verdict();
  if (st.ok() && survey.world_ranks != writers)
    st = Error(Errc::corrupt, "its redundancy files belong to a job of " + std::to_string(survey.world_ranks) +
                                  " processes, its filemaps to one of " + std::to_string(writers));
  SCR_TRY(mpi::agree(job.world, st));
  int turn = 0;
  for (offline::SetState& set : survey.sets)
    if (!set.loss.lost.empty() && turn++ % job.ranks() != job.rank()) set.loss.lost.clear();
  auto rebuilt = rebuild_in_prefix(job.fs(), survey, job.settings.prefix, id, job.settings.piece_size);
  SCR_TRY(mpi::agree(job.world, rebuilt.status()));
  kv::Tree out;
  for (auto& [rank, entry] : *rebuilt) out.put(std::to_string(rank), std::move(entry));
  return out;
}

// Step 3, rank 0: every old rank has its files listed, the summary is
// written and the dataset marked loadable.
Status record(const Job& job, const kv::Tree& desc, int writers, const kv::Tree& copied, kv::Tree rebuilt_mine) {
  auto got = mpi::gather_trees(job.world, rebuilt_mine, 0);
  return edit_index(job, [&](PrefixIndex& idx) {
    std::map<int, kv::Tree> lists;
    int64_t bytes = 0;
    auto take = [&](const kv::Tree& entries) {
      for (const auto& [rank, entry] : entries.children())
        if (auto r = str::parse_int(rank)) lists[static_cast<int>(*r)] = *entry;
    };
    if (const kv::Tree* old = copied.get("OLD")) take(*old);
    for (const auto& [r, t] : got) take(t);
    for (int r = 0; r < writers; ++r) {
      auto it = lists.find(r);
      if (it == lists.end() || !it->second.get("REDFILE"))
        return Error(Errc::unrecoverable, "the files of old rank " + std::to_string(r) + " are missing");
      if (auto files = summary_files(it->second))
        for (const auto& f : *files) bytes += static_cast<int64_t>(f.size);
    }
    return record_flushed(job.fs(), job.settings.prefix, idx, desc, writers, std::move(lists), bytes,
                          job_mark_policy(job.settings))
        .status();
  });
}

// Local: remove the application files this process copied to the prefix
// for a checkpoint that could not be made whole.
void remove_copies(const Job& job, const kv::Tree& mine) {
  if (const kv::Tree* old = mine.get("OLD"))
    for (const auto& [rank, entry] : old->children())
      if (auto files = summary_files(*entry))
        for (const auto& f : *files) (void)io::remove_file(job.fs(), io::path::join(job.settings.prefix, f.name));
}

Status salvage_one(const Job& job, const CacheCatalog& cache, int id, int writers, const kv::Tree& desc) {
  FlushJob marker;
  marker.desc = desc;
  SCR_TRY(begin_flush(job, marker));
  kv::Tree mine;
  SCR_TRY(mpi::in_turns(job.world, job.settings.flush_width, [&] {
    mine = copy_held(job, cache, id);
    return Status::Ok();
  }));
  bool noroom = mpi::any_true(job.world, mine.has("NOROOM"));
  kv::Tree copied = gather_copied(job, mine);
  auto rebuilt = rebuild_lost(job, id, copied, writers);
  Status st = rebuilt ? record(job, desc, writers, copied, std::move(rebuilt).value()) : rebuilt.status();
  if (!st.ok()) remove_copies(job, mine);
  // Files the prefix could not take were counted lost: whatever failed next
  // is the prefix's doing, not the checkpoint's.
  if (!st.ok() && noroom)
    return Error(Errc::no_space, "the prefix could not take its files (then: " + st.message() + ")");
  return st;
}

}  // namespace

Status salvage_resized_cache(const Job& job, const CacheCatalog& cache, EventLog& events) {
  for (int id = next_candidate(job, cache, INT_MAX); id > 0; id = next_candidate(job, cache, id)) {
    bool flushed = false;
    for (const Filemap* fm : cache.held())
      if (fm->has(id) && fm->state(id) == CacheState::flushed) flushed = true;
    if (mpi::any_true(job.world, flushed)) return Status::Ok();  // the prefix has it
    SCR_ASSIGN_OR_RETURN(kv::Tree desc, agree_descriptor(job, cache, id));
    std::string name = DatasetInfo::from_tree(desc).name;
    int writers = old_size(job, cache, id);
    double t0 = wall_seconds();
    Status st = writers > 0 ? salvage_one(job, cache, id, writers, desc)
                            : Error(Errc::corrupt, "no redundancy descriptor records the job size");
    if (st.ok()) {
      events.record({"SALVAGE", name, id, wall_seconds() - t0, -1, std::to_string(writers) + " processes"});
      if (job.rank() == 0)
        log::info("checkpoint " + name + " of the job of " + std::to_string(writers) +
                  " processes was only in cache: made whole and saved to the prefix in " +
                  std::to_string(wall_seconds() - t0) + " s");
      return Status::Ok();
    }
    events.record({"SALVAGE_FAILED", name, id, wall_seconds() - t0, -1, st.message()});
    if (job.rank() == 0)
      log::warn("cached checkpoint " + name + " of the job of " + std::to_string(writers) +
                " processes cannot be made whole: " + st.message() + "; trying an older one");
    // Leave no trace of it in the prefix: it is not loadable (its copied
    // files went above; this removes its .scr directory and index entry).
    SCR_TRY(edit_index(job, [&](PrefixIndex& idx) {
      forget_dataset(job.fs(), job.settings.prefix, idx, id);
      return Status::Ok();
    }));
    // A full or failing prefix says nothing about the checkpoint: the cache
    // is its only copy, and the caller would delete it. Stop instead.
    if (agree_outcome(job.world, st).verdict == Verdict::kept)
      return Error(Errc::no_space, "cached checkpoint " + name + " of the job of " + std::to_string(writers) +
                                       " processes could not be saved to the prefix (" + st.message() +
                                       "); the cache is left as it is: make room in " + job.settings.prefix +
                                       " and start the job again, or save it with scr_scavenge");
  }
  return Status::Ok();
}

}  // namespace scr::rt
