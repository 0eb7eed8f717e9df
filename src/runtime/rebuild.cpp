#include "runtime/rebuild.hpp"

#include <algorithm>
#include <climits>
#include <set>

#include "common/clock.hpp"
#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/redset.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/cache/distribute.hpp"
#include "runtime/cache/outcome.hpp"
#include "runtime/transfer/salvage.hpp"

namespace scr::rt {
namespace {

// The lowest dataset id above `after` that any process holds, or -1.
int next_dataset(const Job& job, const CacheCatalog& cache, int after) {
  int64_t mine = INT_MAX;
  for (const Filemap* fm : cache.held())
    for (int id : fm->ids())
      if (id > after && id < mine) mine = id;
  int64_t next = mpi::min(job.world, mine);
  return next == INT_MAX ? -1 : static_cast<int>(next);
}

// Whether a filemap this process holds (its own or an adopted one) lists
// dataset `id` as read in place from the prefix.
bool held_in_place(const CacheCatalog& cache, int id) {
  for (const Filemap* fm : cache.held())
    if (fm->bypass(id)) return true;
  return false;
}

// The newest checkpoint written with cache bypass that a filemap of any
// process lists as read in place, or 0. Such an entry reaches a filemap
// only once its checkpoint is complete in the prefix (recorded there, or
// checked there by an earlier SCR_Init), whatever state it shows.
int newest_in_place(const Job& job, const CacheCatalog& cache) {
  int64_t newest = 0;
  for (const Filemap* fm : cache.held())
    for (int id : fm->ids()) {
      auto info = fm->info(id);
      if (fm->bypass(id) && info && info->is_checkpoint() && info->bypass) newest = std::max<int64_t>(newest, id);
    }
  return static_cast<int>(mpi::max(job.world, newest));
}

// Written by a job of another size? Then no cached dataset fits this one.
bool size_mismatch(const Job& job, const CacheCatalog& cache, std::string* why) {
  bool bad = false;
  for (const Filemap* fm : cache.held()) {
    if (fm->owner() >= job.ranks()) bad = true;
    for (int id : fm->ids())
      if (const kv::Tree* descs = fm->member_descs(id))
        for (const auto& [w, d] : descs->children())
          if (d->int_or("WRANKS", job.ranks()) != job.ranks()) {
            bad = true;
            *why = d->value_or("WRANKS", "?");
          }
  }
  return mpi::any_true(job.world, bad);
}

// Every process sends each set member it knows of that member's redundancy
// descriptor; a rank whose node was lost learns its own here.
Result<kv::Tree> agree_redundancy(const Job& job, const CacheCatalog& cache, int id) {
  std::map<int, kv::Tree> send;
  if (const kv::Tree* descs = cache.member_descs(id))
    for (const auto& [w, d] : descs->children())
      if (auto r = str::parse_int(w); r && *r >= 0 && *r < job.ranks())
        send[static_cast<int>(*r)] = *d;
  auto got = mpi::exchange_trees(job.world, send);
  Status st;
  if (got.empty())
    st = Error(Errc::not_found, "the redundancy descriptor of rank " + std::to_string(job.rank()) +
                                    " was lost with every copy of it");
  SCR_TRY(mpi::agree(job.world, st));
  return got.begin()->second;
}

// Rebuild one dataset; on success the catalog's entry for it is complete.
Status rebuild_one(const Job& job, CacheCatalog& cache, int id) {
  // A dataset some process knows to be incomplete (killed during
  // SCR_Complete_output) is not used.
  bool incomplete = false;
  for (const Filemap* fm : cache.held())
    if (fm->has(id) && fm->state(id) == CacheState::routed) incomplete = true;
  if (mpi::any_true(job.world, incomplete)) return Error(Errc::unrecoverable, "it was never completed");
  SCR_ASSIGN_OR_RETURN(kv::Tree desc, agree_descriptor(job, cache, id));
  if (job.settings.distribute) SCR_TRY(distribute_files(job, cache, id));
  SCR_ASSIGN_OR_RETURN(kv::Tree reddesc, agree_redundancy(job, cache, id));
  bool flushed = mpi::any_true(job.world, cache.state(id) == CacheState::flushed);

  SCR_ASSIGN_OR_RETURN(redset::Set set,
                       redset::Set::from_desc(job.world, reddesc, job.settings.mpi_piece_size));
  std::string store = DatasetInfo::from_tree(desc).store;
  if (store.empty()) store = cache.default_store();
  // Listed (routed, unless this process held it) before its directory is
  // made: a rebuild that fails leaves the entry that names the directory to
  // clean up.
  cache.begin(id, desc, store);
  std::string dir = cache.dataset_dir(store, id);
  SCR_TRY(mpi::agree(job.world, io::make_dirs(job.fs(), dir, 0700)));
  // recover() checks every file against the CRC32C recorded at Complete:
  // a damaged file is rebuilt, and damaged redundancy data is refused.
  std::vector<kv::FileRecord> records;
  SCR_TRY(redset::recover(job.fs(), set, dir, &records).status());
  // Every member's descriptor again, the rebuilt members' too: with only
  // their own, a checkpoint survives each single loss until the last member
  // that kept them all is lost, and then no longer.
  cache.record_rebuilt(id, records, redset::redundancy_files(set), all_member_descs(set));
  SCR_TRY(cache.transition(id, flushed ? CacheState::flushed : CacheState::complete));
  return cache.commit_agreed(job.world);
}

// Delete a dataset's files from every filemap this process holds.
// The whole dataset directory goes: a dataset interrupted before Complete
// has files its filemap does not list (they are recorded at Complete). Every
// process of the node removes it; whoever comes last finds it gone.
void drop_everywhere(const Job& job, CacheCatalog& cache, int id) {
  std::set<std::string> dirs;
  if (cache.has(id)) {
    dirs.insert(cache.dataset_dir(id));
    (void)delete_cached(job, cache, id);
  }
  for (const auto& dir : cache.forget_everywhere(id)) dirs.insert(dir);
  for (const auto& dir : dirs) (void)io::remove_tree(job.fs(), dir);
}

// A rebuild that failed for want of space or through an I/O error (on a
// spare node, say) says nothing about the data: the files still on intact
// nodes, with their redundancy data, can be rebuilt by a later run or saved
// by scr_scavenge. Keep them; forget only the partial entry of each process
// whose files were being rebuilt, and remove that partial directory where no
// process of the node holds the dataset complete. The dataset is not
// offered for restart in this run (not every process holds it complete).
void keep_intact(const Job& job, CacheCatalog& cache, int id) {
  bool complete_here = cache.state(id) != CacheState::routed;
  // A copy this process holds for another rank (one it could not hand over)
  // lives in the same directory.
  bool holding = false;
  for (const Filemap& fm : cache.adopted()) holding = holding || fm.has(id);
  std::string dir = cache.dataset_dir(id);
  if (!complete_here && cache.has(id)) cache.forget(id);
  if (!mpi::any_true(job.node, complete_here || holding) && job.node.rank() == 0)
    (void)io::remove_tree(job.fs(), dir);
  cache.reserve_ids(id, 0);  // new datasets must not reuse its id
}

}  // namespace

namespace {
// Every dataset of every filemap this process holds.
void drop_all(const Job& job, CacheCatalog& cache) {
  std::set<int> ids;
  for (const Filemap* fm : cache.held())
    for (int id : fm->ids()) ids.insert(id);
  for (int id : ids) drop_everywhere(job, cache, id);
  cache.release_adopted();
}
}  // namespace

Status purge_cache(const Job& job, CacheCatalog& cache) {
  scatter_filemaps(job, cache);
  drop_all(job, cache);
  // A filemap that still lists what was just deleted would send the next
  // run after files that are gone: the job does not start on it.
  return cache.commit_agreed(job.world);
}

Status rebuild_cache(const Job& job, CacheCatalog& cache, EventLog& events, int* in_place) {
  *in_place = 0;
  scatter_filemaps(job, cache);
  std::string old_size;
  if (size_mismatch(job, cache, &old_size)) {
    if (job.rank() == 0)
      log::warn("the cache holds datasets written by a job of " +
                (old_size.empty() ? std::string("a different number of") : old_size) +
                " processes, but this job has " + std::to_string(job.ranks()) +
                "; restarting from the prefix (a checkpoint only in cache is saved there first) "
                "and deleting the cache");
    // Its newest checkpoint, if never flushed, is first made whole in the
    // prefix, where a job of any size can read it.
    // (Also with SCR_FETCH=0: saving is a flush, and the cache goes next.)
    SCR_TRY(salvage_resized_cache(job, cache, events));
    drop_all(job, cache);
    return cache.commit_agreed(job.world);
  }
  *in_place = newest_in_place(job, cache);
  int id = 0;
  while ((id = next_dataset(job, cache, id)) > 0) {
    // Read in place from the prefix (written with cache bypass, or
    // SCR_FETCH_BYPASS): none of it is in cache, so there is nothing to
    // rebuild, nor anything lost. The newest bypass checkpoint's entry stays
    // in this process's own filemap for the caller to check (where an own
    // filemap lists it, a job killed during that check finds it again);
    // every other such entry goes.
    if (mpi::any_true(job.world, held_in_place(cache, id))) {
      if (id == *in_place) {
        for (const Filemap& fm : cache.adopted()) cache.forget_adopted(fm.owner(), id);
      } else {
        drop_everywhere(job, cache, id);
      }
      continue;
    }
    double t0 = wall_seconds();
    Outcome outcome = agree_outcome(job.world, rebuild_one(job, cache, id));
    const Status& st = outcome.why;
    if (outcome.verdict == Verdict::kept) {
      events.record({"DATASET_KEPT", "", id, wall_seconds() - t0, -1, st.message()});
      if (job.rank() == 0)
        log::warn("cached dataset " + std::to_string(id) + " could not be rebuilt: " + st.message() +
                  "; its files on the intact nodes are kept (a later run can rebuild it, "
                  "scr_scavenge can save it) but it is not used in this run");
      keep_intact(job, cache, id);
      job.world.barrier();
      continue;
    }
    if (outcome.verdict == Verdict::unusable) {
      events.record({"DATASET_LOST", "", id, wall_seconds() - t0, -1, st.message()});
      if (job.rank() == 0)
        log::warn("cached dataset " + std::to_string(id) + " cannot be used: " + st.message() +
                  "; deleting it from cache");
      drop_everywhere(job, cache, id);
      job.world.barrier();
      continue;
    }
    DatasetInfo info = cache.info(id).value_or(DatasetInfo{});
    cache.reserve_ids(id, info.ckpt);
    events.record({"REBUILD", info.name, id, wall_seconds() - t0, -1, "intact in cache"});
    if (job.rank() == 0)
      log::info("dataset " + info.name + " is intact in cache (checked/rebuilt in " +
                std::to_string(wall_seconds() - t0) + " s)");
  }
  cache.release_adopted();
  return cache.commit_agreed(job.world);
}

}  // namespace scr::rt
