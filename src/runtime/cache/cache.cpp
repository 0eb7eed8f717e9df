#include "runtime/cache/cache.hpp"

#include <algorithm>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "redset/redset.hpp"

namespace scr::rt {

Result<const ProtectionSet*> protection_set(const Job& job, ProtectionSets& sets, const RedDesc& p) {
  if (auto it = sets.find(&p); it != sets.end()) return &it->second;
  auto group_name = job.settings.groups.member_key(job.id.node, p.group);
  SCR_TRY(mpi::agree(job.world, group_name.status()));
  SCR_ASSIGN_OR_RETURN(redset::Set set, redset::Set::create(job.world, *group_name, p.params));
  kv::Tree descs = all_member_descs(set);
  return &sets.emplace(&p, ProtectionSet{std::move(set), std::move(descs)}).first->second;
}

kv::Tree all_member_descs(const redset::Set& set) {
  kv::Tree descs;
  auto encoded = mpi::allgather_strings(set.comm(), kv::encode(set.desc()));
  for (size_t i = 0; i < encoded.size(); ++i)
    if (auto t = kv::decode(encoded[i])) descs.put(std::to_string(set.members()[i]), std::move(t).value());
  return descs;
}

Status build_protection_sets(const Job& job, ProtectionSets& sets) {
  // A bypass descriptor writes to the prefix and protects nothing in cache
  // (a fetch that caches such a dataset builds its set then).
  for (const RedDesc& p : job.settings.reds)
    if (!p.bypass && p.enabled) SCR_TRY(protection_set(job, sets, p).status());
  return Status::Ok();
}

Status protect_dataset(const Job& job, CacheCatalog& cache, ProtectionSets& sets, int id,
                       const RedDesc& p, std::optional<kv::Tree> described) {
  SCR_ASSIGN_OR_RETURN(const ProtectionSet* ps, protection_set(job, sets, p));
  const redset::Set& set = ps->set;
  std::string dir = cache.dataset_dir(p.store, id);
  std::vector<kv::FileRecord> recorded;
  std::string spare = spare_file(job, p.store);
  Status applied = described ? redset::apply(job.fs(), set, dir, std::move(*described), &recorded, spare)
                             : redset::apply(job.fs(), set, dir, cache.files(id), &recorded, spare);
  // A spare the encode did not take (SINGLE writes a header alone; a
  // failed encode) would hold its memory for nothing.
  (void)io::remove_file(job.fs(), spare);
  SCR_TRY(applied);
  // The CRC32Cs, for every later copy to check (flush, fetch, scavenge,
  // rebuild); the sizes, for the restart listing.
  cache.record_protected(id, recorded, redset::redundancy_files(set), ps->member_descs);
  return Status::Ok();
}

Status delete_cached(const Job& job, CacheCatalog& cache, int id, const std::string& spare) {
  if (cache.bypass(id)) {  // read in place from the prefix: nothing cached
    cache.forget(id);
    return cache.commit();
  }
  std::string dir = cache.dataset_dir(id);
  Status first;
  auto note = [&](Status st) {
    if (first.ok() && !st.ok()) first = st;
  };
  for (const auto& f : cache.files(id)) note(io::remove_file(job.fs(), io::path::join(dir, f)));
  for (const auto& name : cache.redundancy_files(id)) {
    std::string path = io::path::join(dir, name);
    // Kept for the next encode to write over, or (that failing) deleted.
    if (!spare.empty() && job.fs().rename(path, spare).ok()) continue;
    note(io::remove_file(job.fs(), path));
  }
  // The directory is shared by the processes of a node: the last one out
  // removes it (and any empty subdirectories the application created).
  io::remove_empty_dirs(job.fs(), dir);
  cache.forget(id);
  note(cache.commit());
  return first;
}

namespace {
// Checkpoint datasets (complete or not) this process holds in `store`,
// ascending.
std::vector<int> held_checkpoints(const CacheCatalog& cache, const std::string& store) {
  std::vector<int> out;
  for (int id : cache.ids()) {
    // One read in place from the prefix holds nothing in cache.
    if (cache.store(id) != store || cache.bypass(id)) continue;
    auto info = cache.info(id);
    if (!info || info->is_checkpoint()) out.push_back(id);
  }
  return out;
}
}  // namespace

Status evict_for_checkpoint(const Job& job, CacheCatalog& cache, const RedDesc& p,
                            const WaitFlushed& wait_flushed) {
  for (;;) {
    std::vector<int> held = held_checkpoints(cache, p.store);
    // Every process decides on the same numbers: the most any holds, and
    // the oldest id anyone holds. Output-only datasets leave the cache when
    // flushed and do not count.
    int most = static_cast<int>(mpi::max(job.world, static_cast<int64_t>(held.size())));
    if (most < p.store_count || most == 0) return Status::Ok();
    int oldest = static_cast<int>(
        mpi::min(job.world, held.empty() ? INT32_MAX : static_cast<int64_t>(held.front())));
    if (job.rank() == 0)
      log::debug(1, "store " + p.store + " holds " + std::to_string(most) + " of its " +
                        std::to_string(p.store_count) + " checkpoints: evicting dataset " +
                        std::to_string(oldest));
    SCR_TRY(delete_cached_agreed(job, cache, oldest, wait_flushed, spare_file(job, p.store)));
  }
}

Status delete_cached_agreed(const Job& job, CacheCatalog& cache, int id, const WaitFlushed& wait_flushed,
                            const std::string& spare) {
  // Never delete a dataset while it is being flushed: wait for the flush.
  SCR_TRY(wait_flushed(id));
  Status st = cache.has(id) ? delete_cached(job, cache, id, spare) : Status::Ok();
  return mpi::agree(job.world, st);
}

namespace {
constexpr const char* kSparePrefix = "scr.spare.";
}  // namespace

std::string spare_file(const Job& job, const std::string& store) {
  return io::path::join(job.cache_dir(store), kSparePrefix + std::to_string(job.rank()));
}

void drop_spares(const Job& job) {
  for (const RedDesc& p : job.settings.reds)
    if (p.enabled && !p.bypass) (void)io::remove_file(job.fs(), spare_file(job, p.store));
}

void sweep_cache_entries(const Job& job, std::string_view prefix) {
  // Every store a descriptor names, bypassed or not now: an earlier run of
  // the job may have cached there.
  for (const RedDesc& p : job.settings.reds) {
    std::string base = job.cache_dir(p.store);
    auto names = job.fs().list_dir(base);
    if (!names) continue;
    for (const auto& n : *names)
      if (str::starts_with(n, prefix)) (void)io::remove_tree(job.fs(), io::path::join(base, n));
  }
}

void sweep_spares(const Job& job) {
  if (job.node.rank() == 0) sweep_cache_entries(job, kSparePrefix);
}

std::vector<int> cached_checkpoints(const Job& job, const CacheCatalog& cache) {
  auto usable = [&](int id) {
    auto info = cache.info(id);
    return info && info->is_checkpoint() && cache.state(id) != CacheState::routed;
  };
  // Walk down from the newest id anyone holds; keep those every process has.
  std::vector<int> agreed;
  int64_t below = INT32_MAX;
  for (;;) {
    int64_t mine = -1;
    for (int id : cache.ids())
      if (id < below && usable(id)) mine = id;
    int64_t next = mpi::max(job.world, mine);
    if (next < 0) break;
    if (mpi::all_true(job.world, usable(static_cast<int>(next))))
      agreed.push_back(static_cast<int>(next));
    below = next;
  }
  return agreed;
}

}  // namespace scr::rt
