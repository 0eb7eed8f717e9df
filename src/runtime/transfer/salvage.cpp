#include "runtime/transfer/salvage.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "mpi/turns.hpp"
#include "redset/member_facts_tree.hpp"
#include "redset/offline.hpp"
#include "runtime/cache/outcome.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/prefix_rebuild.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/transfer/flush.hpp"

namespace scr::rt {
namespace {

namespace offline = redset::offline;

// The newest complete checkpoint any process holds in cache below `below`,
// or 0. One read in place from the prefix (cache bypass) is not in cache:
// the restart at the new size finds it there, checked, or falls back to
// what is saved here.
int next_candidate(const Job& job, const CacheCatalog& cache, int below) {
  int64_t best = 0;
  for (const Filemap* fm : cache.held())
    for (int id : fm->ids()) {
      auto info = fm->info(id);
      if (id < below && id > best && fm->state(id) != CacheState::routed && !fm->bypass(id) && info &&
          info->is_checkpoint())
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

// What the salvage may leave in the prefix if it fails: the files a failed
// copy of an old rank had copied, and the directories noted missing before
// the copies (begin_flush) and before the rebuild (rebuild_in_prefix), all
// the directories it may remove.
struct LeftBehind {
  std::vector<std::string> copied, new_dirs;
  // The held-back replacements of the ranks copied whole: put in place only
  // once the checkpoint is whole everywhere (flush.hpp, end_flush).
  Deferred deferred;
};

// Step 1, local: copy the old ranks' files this process holds. Returns
// OLD/<rank> = {FILE/..., REDFILE/...} for each copied rank, SUSPECT/<rank>
// for each whose copy failed, and NOROOM = 1 when a copy failed for the
// prefix's sake (no space, I/O error) rather than the cached file's. What
// the failed copies left goes to `left`.
kv::Tree copy_held(const Job& job, const CacheCatalog& cache, int id, LeftBehind& left) {
  kv::Tree out;
  for (const Filemap* fm : cache.held()) {
    if (!fm->has(id)) continue;
    std::string rank = std::to_string(fm->owner());
    FlushJob plan = plan_copies(job.settings, cache, *fm, id);
    std::vector<std::string> finished;
    Deferred deferred;  // this rank's alone: a failed copy drops only its own
    auto copied = run_copies(job.fs(), plan, job.settings.prefix, deferred, &finished);
    if (copied) {
      left.deferred.absorb(std::move(deferred));
      out.child("OLD").put(rank, std::move(copied).value());
    } else {
      // Rebuilt in place if the checkpoint can be made whole; removed with
      // the rest if it cannot.
      left.copied.insert(left.copied.end(), finished.begin(), finished.end());
      log::warn("the cached files of old rank " + rank + " cannot be saved (" + copied.status().message() +
                "); rebuilding them from redundancy data");
      out.child("SUSPECT").set_int(rank, 1);
      Errc code = copied.status().code();
      if (code == Errc::no_space || code == Errc::io_error) out.set_int("NOROOM", 1);
    }
  }
  return out;
}

// Step 2, local: the survey facts of the old ranks this process copied,
// read from their copies in the prefix (FACTS/<rank>), so that the headers
// of the lost ranks' sets are judged without any process reading them all.
void read_copied_facts(const Job& job, int id, kv::Tree& mine) {
  std::string meta_dir = prefix_dataset_dir(job.settings.prefix, id);
  if (const kv::Tree* old = mine.get("OLD"))
    for (const auto& [rank, entry] : old->children()) {
      const kv::Tree* red = entry->get("REDFILE");
      if (!red || red->size() != 1) continue;  // no redundancy file: counted lost
      std::string redfile = io::path::join(meta_dir, red->children().begin()->first);
      auto facts = redset::read_member_facts(job.fs(), job.settings.prefix, redfile);
      mine.child("FACTS").put(rank, redset::facts_tree(facts));
    }
}

// Everyone's OLD, SUSPECT and FACTS entries, merged on rank 0 (empty
// elsewhere): along a tree of processes, so that no process but rank 0
// holds more than its subtree's.
kv::Tree gather_copied(const Job& job, const kv::Tree& mine) {
  auto got = mpi::gather_trees(job.world, mine, 0);
  kv::Tree all;
  if (job.rank() == 0)
    for (auto& [r, t] : got)
      for (const char* key : {"OLD", "SUSPECT", "FACTS"})
        if (const kv::Tree* part = t.get(key))
          for (const auto& [rank, entry] : part->children()) all.child(key).put(rank, *entry);
  return all;
}

int rank_of(const std::string& key) {
  auto r = str::parse_int(key);
  return r ? static_cast<int>(*r) : -1;
}

// Rank 0: the survey of every old rank from the gathered facts, its verdict
// (with the job size the filemaps tell), and each process's share of the
// sets to rebuild, dealt out in turn: PLACE/<rank> = {DIR, REDFILE} and
// SUSPECT/<rank> for the members of its sets, SET/<group> = the lost set
// ranks it must find there too.
Status judge(const Job& job, const kv::Tree& copied, int writers, std::vector<kv::Tree>& shares) {
  std::map<int, redset::MemberFacts> facts;
  std::set<int> suspects;
  if (const kv::Tree* all = copied.get("FACTS"))
    for (const auto& [rank, entry] : all->children()) {
      SCR_ASSIGN_OR_RETURN(facts[rank_of(rank)], redset::facts_from_tree(*entry));
    }
  if (const kv::Tree* bad = copied.get("SUSPECT"))
    for (const auto& [rank, entry] : bad->children()) suspects.insert(rank_of(rank));
  offline::Survey survey = offline::survey_facts(facts, suspects);
  SCR_TRY(survey.verdict());
  if (survey.world_ranks != writers)
    return Error(Errc::corrupt, "its redundancy files belong to a job of " + std::to_string(survey.world_ranks) +
                                    " processes, its filemaps to one of " + std::to_string(writers));
  int turn = 0;
  for (const offline::SetState& set : survey.sets) {
    if (set.loss.lost.empty()) continue;
    kv::Tree& share = shares[static_cast<size_t>(turn++ % job.ranks())];
    kv::Tree& lost = share.child("SET").child(std::to_string(set.shape.group));
    for (int r : set.loss.lost) lost.set_int(std::to_string(r), 1);
    for (int w : set.shape.members) {
      std::string rank = std::to_string(w);
      if (suspects.count(w)) share.child("SUSPECT").set_int(rank, 1);
      if (auto f = facts.find(w); f != facts.end()) {
        kv::Tree& place = share.child("PLACE").child(rank);
        place.set("DIR", job.settings.prefix);
        place.set("REDFILE", f->second.redundancy_file);
      }
    }
  }
  return Status::Ok();
}

// Local: this process's sets, surveyed from their members' files alone and
// rebuilt in the prefix. Returns the summary entries of the ranks rebuilt;
// a rebuild that stops part way has taken back what it wrote (its sets
// finished before included), which remove_copies could not name. The
// directories it noted missing before it wrote go to `new_dirs`.
Result<std::map<int, kv::Tree>> rebuild_share(const Job& job, int id, const kv::Tree& share,
                                              std::vector<std::string>& new_dirs) {
  const kv::Tree* sets = share.get("SET");
  if (!sets) return std::map<int, kv::Tree>{};
  std::map<int, offline::Place> places;
  std::set<int> suspects;
  if (const kv::Tree* all = share.get("PLACE"))
    for (const auto& [rank, place] : all->children())
      places[rank_of(rank)] = {place->value_or("DIR", ""), place->value_or("REDFILE", "")};
  if (const kv::Tree* bad = share.get("SUSPECT"))
    for (const auto& [rank, entry] : bad->children()) suspects.insert(rank_of(rank));
  offline::Survey survey = offline::survey(job.fs(), places, suspects);
  // Only the sets dealt to this process: a header that claims another set
  // (of another job, or outvoted there) is no set of ours, and the ranks of
  // the other sets, unread here, were judged on rank 0.
  std::erase_if(survey.sets,
                [&](const offline::SetState& s) { return !sets->has(std::to_string(s.shape.group)); });
  survey.unknown_ranks.clear();
  for (const auto& [group, lost] : sets->children()) {
    auto it = std::find_if(survey.sets.begin(), survey.sets.end(),
                           [&](const offline::SetState& s) { return std::to_string(s.shape.group) == group; });
    std::vector<int> expected;
    for (const auto& [r, one] : lost->children()) expected.push_back(rank_of(r));
    std::sort(expected.begin(), expected.end());
    // The files were read twice (by their copiers, then here): a set that
    // changed meanwhile is not rebuilt on a judgement made of other files.
    if (it == survey.sets.end() || it->loss.lost != expected)
      return Error(Errc::corrupt, "the redundancy files of set " + group + " changed during the salvage");
  }
  survey.world_ranks = survey.sets.empty() ? 0 : survey.sets.front().shape.world_ranks;
  PrefixRebuildOptions options;
  options.piece_size = job.settings.piece_size;
  SCR_ASSIGN_OR_RETURN(RebuiltInPrefix rebuilt, rebuild_in_prefix(job.fs(), survey, job.settings.prefix, id, options));
  new_dirs.insert(new_dirs.end(), rebuilt.new_dirs.begin(), rebuilt.new_dirs.end());
  return std::move(rebuilt.entries);
}

// Step 3: the lost old ranks' files, rebuilt in the prefix. Rank 0 judges
// the survey facts gathered and deals the sets with losses out to the
// processes in turn, each given only its sets' members' places; the
// verdict is agreed by everyone. Returns the summary entries of the ranks
// this process rebuilt.
// `left.deferred`: this process's held-back copies, put in place before any
// rebuild reads them; `left.new_dirs` receives the directories the rebuild
// may make.
// `made` receives this process's rebuilt old ranks (as the result lists
// them) even when another process failed: whatever fails after the rebuild,
// the files it wrote into the prefix are known, to be removed.
Result<kv::Tree> rebuild_lost(const Job& job, int id, const kv::Tree& copied, int writers, kv::Tree& made,
                              LeftBehind& left) {
  std::vector<kv::Tree> shares;
  Status st;
  if (job.rank() == 0) {
    shares.resize(static_cast<size_t>(job.ranks()));
    st = judge(job, copied, writers, shares);
  }
  SCR_TRY(mpi::agree(job.world, st));
  kv::Tree share = mpi::scatter_trees(job.world, shares, 0);
  // The rebuild reads the copies at their names: held-back copies take
  // them first. The newer checkpoint, which only the cache holds, comes
  // before the older one whose names it reuses (should the rebuild then
  // fail, that one has lost those files, as before copies were held back).
  if (mpi::any_true(job.world, share.has("SET"))) SCR_TRY(replace_deferred_everywhere(job, left.deferred));
  auto rebuilt = rebuild_share(job, id, share, left.new_dirs);
  if (rebuilt)
    for (auto& [rank, entry] : *rebuilt) made.put(std::to_string(rank), std::move(entry));
  SCR_TRY(mpi::agree(job.world, rebuilt.status()));
  return made;
}

// Step 4, rank 0: every old rank has its files listed, the summary is
// written and the dataset marked loadable.
Status record(const Job& job, const kv::Tree& desc, int writers, const kv::Tree& copied, kv::Tree rebuilt_mine) {
  auto got = mpi::gather_trees(job.world, rebuilt_mine, 0);
  std::map<int, kv::Tree> lists;
  int64_t bytes = 0;
  Status whole;
  if (job.rank() == 0) {
    auto take = [&](const kv::Tree& entries) {
      for (const auto& [rank, entry] : entries.children())
        if (auto r = str::parse_int(rank)) lists[static_cast<int>(*r)] = *entry;
    };
    if (const kv::Tree* old = copied.get("OLD")) take(*old);
    for (const auto& [r, t] : got) take(t);
    for (int r = 0; r < writers && whole.ok(); ++r) {
      auto it = lists.find(r);
      if (it == lists.end() || !it->second.get("REDFILE"))
        whole = Error(Errc::unrecoverable, "the files of old rank " + std::to_string(r) + " are missing");
      else if (auto files = summary_files(it->second))
        for (const auto& f : *files) bytes += static_cast<int64_t>(f.size);
    }
  }
  SCR_TRY(mpi::agree(job.world, whole));
  return record_flush(job, desc, writers, std::move(lists), bytes);
}

// Local: remove the application files this process copied to the prefix
// for a checkpoint that could not be made whole, those a failed copy had
// finished, those it rebuilt there, and the directories made for them that
// this leaves empty (an empty step.30/ would pass for a checkpoint). A
// planned file a failed copy never reached is not touched, nor a directory
// that was there before the salvage, even when empty.
// A name whose copy was held back still holds an older dataset's file: it
// stays, and so does the temporary's directory (it holds that file).
void remove_copies(const Job& job, const kv::Tree& mine, LeftBehind& left, const kv::Tree& rebuilt) {
  std::set<std::string> older;
  for (const auto& f : left.deferred.files) older.insert(f.dst);
  drop_deferred(job.fs(), left.deferred);
  std::vector<std::string> removed = left.copied;
  auto listed = [&](const kv::Tree* entries) {
    if (entries)
      for (const auto& [rank, entry] : entries->children())
        if (auto files = summary_files(*entry))
          for (const auto& f : *files)
            if (std::string p = io::path::join(job.settings.prefix, f.name); !older.count(p))
              removed.push_back(std::move(p));
  };
  listed(mine.get("OLD"));
  listed(&rebuilt);
  io::remove_files_and_made_dirs(job.fs(), job.settings.prefix, removed, left.new_dirs);
}

// The prefix directories the copies of the old ranks this process holds
// would make, each once (a directory, not a file, per entry).
std::vector<std::string> held_dirs(const Job& job, const CacheCatalog& cache, int id) {
  std::set<std::string> dirs;
  for (const Filemap* fm : cache.held())
    if (fm->has(id)) {
      FlushJob plan = plan_copies(job.settings, cache, *fm, id);
      dirs.insert(plan.dirs.begin(), plan.dirs.end());
    }
  return {dirs.begin(), dirs.end()};
}

Status salvage_one(const Job& job, const CacheCatalog& cache, int id, int writers, const kv::Tree& desc) {
  FlushJob marker;
  marker.desc = desc;
  marker.dirs = held_dirs(job, cache, id);
  SCR_TRY(begin_flush(job, marker));
  kv::Tree mine;
  LeftBehind left;
  left.new_dirs = std::move(marker.new_dirs);
  SCR_TRY(mpi::in_turns(job.world, job.settings.flush_width, [&] {
    mine = copy_held(job, cache, id, left);
    return Status::Ok();
  }));
  bool noroom = mpi::any_true(job.world, mine.has("NOROOM"));
  read_copied_facts(job, id, mine);
  kv::Tree copied = gather_copied(job, mine);
  kv::Tree made;  // the old ranks this process rebuilt, also if a later step fails
  auto rebuilt = rebuild_lost(job, id, copied, writers, made, left);
  Status st = rebuilt ? record(job, desc, writers, copied, std::move(rebuilt).value()) : rebuilt.status();
  if (!st.ok()) {
    // A record that reached the index after all (its last step failed)
    // keeps the files it names, as a flush's does: the held-back copies
    // take their names and nothing goes.
    if (rebuilt && !settle_unrecorded(job, id, left.deferred)) return st;
    remove_copies(job, mine, left, made);
    // Files the prefix could not take were counted lost: whatever failed
    // next is the prefix's doing, not the checkpoint's.
    if (noroom) return Error(Errc::no_space, "the prefix could not take its files (then: " + st.message() + ")");
    return st;
  }
  // Recorded: the older files of the names the checkpoint reuses are
  // replaced now (deferred.hpp).
  place_recorded_copies(job, left.deferred);
  return Status::Ok();
}

// Collective: whether some process's filemap says dataset `id` was flushed.
bool marked_flushed(const Job& job, const CacheCatalog& cache, int id) {
  bool flushed = false;
  for (const Filemap* fm : cache.held())
    if (fm->has(id) && fm->state(id) == CacheState::flushed) flushed = true;
  return mpi::any_true(job.world, flushed);
}

// Collective: whether the prefix index records this very dataset as
// flushed, as it does when a flush recorded it and its job died before any
// filemap was marked. The record made its files and summary durable
// before the index named it (record_flushed): the prefix has it whole, and
// a salvage could only put copies from the cache over that flush's files.
// scr_scavenge skips such a dataset for the same reason ("already
// flushed"). Another dataset under the same id does not count: the cache
// holds the only copy of this one.
bool recorded_in_prefix(const Job& job, const kv::Tree& desc) {
  int recorded = 0;
  if (job.rank() == 0) {
    auto idx = PrefixIndex::load(job.fs(), job.settings.prefix);
    recorded = idx && records_flush_of(*idx, desc) ? 1 : 0;
  }
  mpi::bcast_int(job.world, recorded, 0);
  return recorded != 0;
}

// Collective: the checkpoint the restart would fetch first (the one
// SCR_CURRENT or the index's CURRENT names when loadable, else the newest
// loadable): its id and name; id 0 when the prefix holds none, when no
// fetch will read it (SCR_FETCH=0, SCR_PREFIX_PURGE=1), or when its files
// are not all there (a fetch would fall back past the cached checkpoint).
std::pair<int, std::string> first_to_fetch(const Job& job) {
  int first = 0;
  std::string name;
  if (job.rank() == 0 && job.settings.fetch && !job.settings.prefix_purge) {
    auto idx = PrefixIndex::load(job.fs(), job.settings.prefix);
    auto order = idx ? idx->fetch_order(job.settings.current) : std::vector<int>{};
    if (!order.empty() && summary_files_in_place(job.fs(), job.settings.prefix, order.front())) {
      first = order.front();
      name = idx->find(first)->value_or("NAME", std::to_string(first));
    }
  }
  mpi::bcast_int(job.world, first, 0);
  mpi::bcast_string(job.world, name, 0);
  return {first, name};
}

}  // namespace

Status salvage_resized_cache(const Job& job, const CacheCatalog& cache, EventLog& events) {
  for (int id = next_candidate(job, cache, INT_MAX); id > 0; id = next_candidate(job, cache, id)) {
    // The prefix has it: the restart fetches it from there.
    if (marked_flushed(job, cache, id)) return Status::Ok();
    SCR_ASSIGN_OR_RETURN(kv::Tree desc, agree_descriptor(job, cache, id));
    std::string name = DatasetInfo::from_tree(desc).name;
    if (recorded_in_prefix(job, desc)) {
      if (job.rank() == 0)
        log::info("checkpoint " + name + " is in the prefix already (the index records its flush; its job ended " +
                  "before the cache noted it): not saved again, the restart reads it from the prefix");
      return Status::Ok();
    }
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
    // Unless the index records it: the salvage's own record landed and its
    // last step failed, and salvage_one kept the files it names. (A record
    // from before the salvage ended the search above.)
    Status forgot = edit_index(job, [&](PrefixIndex& idx) {
      if (!idx.flushed(id)) forget_dataset(job.fs(), job.settings.prefix, idx, id);
      return Status::Ok();
    });
    // A full or failing prefix says nothing about the checkpoint: the cache
    // is its only copy, and the caller would delete it. Stop instead, unless
    // the restart reads a newer checkpoint from the prefix anyway (written
    // there with cache bypass, or flushed and since lost from cache): this
    // one was only a fallback, and stopping would keep the job from the
    // newest checkpoint it has.
    if (agree_outcome(job.world, st).verdict == Verdict::kept) {
      if (auto [newer, newer_name] = first_to_fetch(job); newer > id) {
        // (An entry left begun, when even the index could not be saved,
        // is not loadable.)
        if (job.rank() == 0 && !forgot.ok()) log::warn(forgot.message());
        if (job.rank() == 0)
          log::warn("cached checkpoint " + name + " is not saved (" + st.message() +
                    "): the restart reads the newer checkpoint " + newer_name +
                    " from the prefix, and the cache is deleted");
        return Status::Ok();
      }
      SCR_TRY(forgot);
      return Error(Errc::no_space, "cached checkpoint " + name + " of the job of " + std::to_string(writers) +
                                       " processes could not be saved to the prefix (" + st.message() +
                                       "); the cache is left as it is: make room in " + job.settings.prefix +
                                       " and start the job again, or save it with scr_scavenge");
    }
    SCR_TRY(forgot);
  }
  return Status::Ok();
}

}  // namespace scr::rt
