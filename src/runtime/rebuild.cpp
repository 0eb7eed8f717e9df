#include "runtime/rebuild.hpp"

#include <climits>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "redset/redset.hpp"
#include "runtime/cache.hpp"

namespace scr::rt {
namespace {

// The lowest dataset id above `after` that any process holds, or -1.
int next_dataset(Context& ctx, int after) {
  int64_t mine = INT_MAX;
  for (int id : ctx.filemap.datasets())
    if (id > after) {
      mine = id;
      break;
    }
  int64_t next = mpi::min(ctx.world, mine);
  return next == INT_MAX ? -1 : static_cast<int>(next);
}

// Broadcast the dataset descriptor from the lowest rank that has one.
Result<kv::Tree> agree_descriptor(Context& ctx, int id) {
  const kv::Tree* entry = ctx.filemap.find(id);
  bool have = entry && entry->get("DESC");
  int64_t owner = mpi::min(ctx.world, have ? ctx.rank() : INT_MAX);
  if (owner == INT_MAX) return Error(Errc::not_found, "no process holds its descriptor");
  kv::Tree desc = have ? *entry->get("DESC") : kv::Tree();
  mpi::bcast_tree(ctx.world, desc, static_cast<int>(owner));
  return desc;
}

// Every process that holds descriptors of its set's members sends each
// member its own; a process whose node was lost learns its descriptor here.
Result<kv::Tree> agree_redundancy(Context& ctx, int id) {
  std::map<int, kv::Tree> send;
  bool out_of_range = false;
  const kv::Tree* entry = ctx.filemap.find(id);
  if (const kv::Tree* descs = entry ? entry->get("REDDESC") : nullptr)
    for (const auto& [w, d] : descs->children()) {
      auto r = str::parse_int(w);
      if (!r) continue;
      if (*r >= ctx.ranks()) out_of_range = true;
      else if (*r >= 0) send[static_cast<int>(*r)] = *d;
    }
  auto got = mpi::exchange_trees(ctx.world, send);
  Status st;
  if (mpi::any_true(ctx.world, out_of_range))
    st = Error(Errc::invalid_argument,
               "it was written by a job with more processes than this one's " +
                   std::to_string(ctx.ranks()));
  else if (got.empty())
    st = Error(Errc::not_found, "the redundancy descriptor of rank " + std::to_string(ctx.rank()) +
                                    " was lost with every copy of it");
  SCR_TRY(mpi::agree(ctx.world, st));
  return got.begin()->second;
}

// Rebuild one dataset; on success the filemap entry is complete.
Status rebuild_one(Context& ctx, int id) {
  // A dataset some process knows to be incomplete (killed during
  // SCR_Complete_output) is not used.
  const kv::Tree* entry = ctx.filemap.find(id);
  bool incomplete = entry && !ctx.filemap.flag(id, "COMPLETE");
  if (mpi::any_true(ctx.world, incomplete))
    return Error(Errc::unrecoverable, "it was never completed");
  SCR_ASSIGN_OR_RETURN(kv::Tree desc, agree_descriptor(ctx, id));
  SCR_ASSIGN_OR_RETURN(kv::Tree reddesc, agree_redundancy(ctx, id));
  bool flushed = mpi::any_true(ctx.world, ctx.filemap.flag(id, "FLUSHED"));

  SCR_ASSIGN_OR_RETURN(redset::Set set,
                       redset::Set::from_desc(ctx.world, reddesc, ctx.settings.piece_size));
  std::string store = desc.value_or("STORE", ctx.settings.cache_base);
  kv::Tree& mine = ctx.filemap.dataset(id);
  mine.put("DESC", desc);
  mine.set("STORE", store);
  std::string dir = ctx.dataset_dir(store, id);
  SCR_TRY(mpi::agree(ctx.world, io::make_dirs(ctx.fs(), dir, 0700)));
  SCR_ASSIGN_OR_RETURN(auto files, redset::recover(ctx.fs(), set, dir));

  mine.reset("FILE");
  for (const auto& f : files) ctx.filemap.add_file(id, f);
  ctx.filemap.set_redundancy_files(id, redset::redundancy_files(set));
  mine.child("REDDESC").put(std::to_string(ctx.rank()), reddesc);
  ctx.filemap.set_flag(id, "COMPLETE", true);
  ctx.filemap.set_flag(id, "FLUSHED", flushed);
  return mpi::agree(ctx.world, ctx.filemap.save(ctx.fs()));
}

}  // namespace

Status rebuild_cache(Context& ctx) {
  int id = 0;
  int rebuilt = 0;
  while ((id = next_dataset(ctx, id)) > 0) {
    double t0 = wall_seconds();
    Status st = rebuild_one(ctx, id);
    if (!st.ok()) {
      if (ctx.rank() == 0)
        log::warn("cached dataset " + std::to_string(id) + " cannot be used: " + st.message() +
                  "; deleting it from cache");
      if (ctx.filemap.has(id)) (void)delete_cached(ctx, id);
      ctx.world.barrier();
      continue;
    }
    ++rebuilt;
    const kv::Tree* desc = ctx.filemap.find(id)->get("DESC");
    DatasetInfo info = DatasetInfo::from_tree(*desc);
    ctx.dataset_id = std::max(ctx.dataset_id, id);
    ctx.checkpoint_id = std::max(ctx.checkpoint_id, info.ckpt);
    if (ctx.rank() == 0)
      log::info("dataset " + info.name + " is intact in cache (checked/rebuilt in " +
                std::to_string(wall_seconds() - t0) + " s)");
  }
  return Status::Ok();
}

}  // namespace scr::rt
