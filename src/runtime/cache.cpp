#include "runtime/cache.hpp"

#include <algorithm>

#include "common/log.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "redset/redset.hpp"
#include "runtime/async_flush.hpp"

namespace scr::rt {

namespace {

// The set of a protection (collective over world when it is not built yet).
Result<const Context::ProtectionSet*> protection_set(Context& ctx, const RedDesc& p) {
  if (auto it = ctx.sets.find(&p); it != ctx.sets.end()) return &it->second;
  auto group_name = ctx.settings.groups.member_key(ctx.id.node, p.group);
  SCR_TRY(mpi::agree(ctx.world, group_name.status()));
  SCR_ASSIGN_OR_RETURN(redset::Set set, redset::Set::create(ctx.world, *group_name, p.params));
  // Every member keeps all members' descriptors, so a member whose node is
  // lost can be told its own.
  kv::Tree descs;
  auto encoded = mpi::allgather_strings(set.comm(), kv::encode(set.desc()));
  for (size_t i = 0; i < encoded.size(); ++i)
    if (auto t = kv::decode(encoded[i])) descs.put(std::to_string(set.members()[i]), std::move(t).value());
  return &ctx.sets.emplace(&p, Context::ProtectionSet{std::move(set), std::move(descs)}).first->second;
}

}  // namespace

Status build_protection_sets(Context& ctx) {
  // A bypass descriptor writes to the prefix and protects nothing in cache
  // (a fetch that caches such a dataset builds its set then).
  for (const RedDesc& p : ctx.settings.reds)
    if (!p.bypass && p.enabled) SCR_TRY(protection_set(ctx, p).status());
  return Status::Ok();
}

Status protect_dataset(Context& ctx, int id, const RedDesc& p, std::optional<kv::Tree> described) {
  SCR_ASSIGN_OR_RETURN(const Context::ProtectionSet* ps, protection_set(ctx, p));
  const redset::Set& set = ps->set;
  std::string dir = ctx.cache.dataset_dir(p.store, id);
  std::vector<kv::FileRecord> recorded;
  SCR_TRY(described ? redset::apply(ctx.fs(), set, dir, std::move(*described), &recorded)
                    : redset::apply(ctx.fs(), set, dir, ctx.cache.files(id), &recorded));
  // The CRC32Cs, for every later copy to check (flush, fetch, scavenge,
  // rebuild); the sizes, for the restart listing.
  ctx.cache.record_protected(id, recorded, redset::redundancy_files(set), ps->member_descs);
  return Status::Ok();
}

Status delete_cached(Context& ctx, int id) {
  if (ctx.cache.bypass(id)) {  // read in place from the prefix: nothing cached
    ctx.cache.forget(id);
    return ctx.cache.commit();
  }
  std::string dir = ctx.cache.dataset_dir(id);
  Status first;
  auto note = [&](Status st) {
    if (first.ok() && !st.ok()) first = st;
  };
  for (const auto& f : ctx.cache.files(id)) note(io::remove_file(ctx.fs(), io::path::join(dir, f)));
  for (const auto& name : ctx.cache.redundancy_files(id))
    note(io::remove_file(ctx.fs(), io::path::join(dir, name)));
  // The directory is shared by the processes of a node: the last one out
  // removes it (and any empty subdirectories the application created).
  io::remove_empty_dirs(ctx.fs(), dir);
  ctx.cache.forget(id);
  note(ctx.cache.commit());
  return first;
}

namespace {
// Checkpoint datasets (complete or not) this process holds in `store`,
// ascending.
std::vector<int> held_checkpoints(const CacheCatalog& cache, const std::string& store) {
  std::vector<int> out;
  for (int id : cache.ids()) {
    if (cache.store(id) != store) continue;
    auto info = cache.info(id);
    if (!info || info->is_checkpoint()) out.push_back(id);
  }
  return out;
}
}  // namespace

Status evict_for_checkpoint(Context& ctx, const RedDesc& p) {
  for (;;) {
    std::vector<int> held = held_checkpoints(ctx.cache, p.store);
    // Every process decides on the same numbers: the most any holds, and
    // the oldest id anyone holds. Output-only datasets leave the cache when
    // flushed and do not count.
    int most = static_cast<int>(mpi::max(ctx.world, static_cast<int64_t>(held.size())));
    if (most < p.store_count || most == 0) return Status::Ok();
    int oldest = static_cast<int>(
        mpi::min(ctx.world, held.empty() ? INT32_MAX : static_cast<int64_t>(held.front())));
    if (ctx.rank() == 0)
      log::debug(1, "store " + p.store + " holds " + std::to_string(most) + " of its " +
                        std::to_string(p.store_count) + " checkpoints: evicting dataset " +
                        std::to_string(oldest));
    // Never delete a dataset while it is being flushed: wait for the flush.
    SCR_TRY(ctx.flusher->wait_for(ctx, oldest));
    Status st = ctx.cache.has(oldest) ? delete_cached(ctx, oldest) : Status::Ok();
    SCR_TRY(mpi::agree(ctx.world, st));
  }
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
