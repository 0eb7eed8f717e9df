// Dataset management calls: SCR_Current, SCR_Drop, SCR_Delete.
//
// As in SCR, naming a dataset nobody knows is not an error: the call
// succeeds, changes nothing and says so once (rank 0). A name that is known
// but cannot serve (SCR_Current on an output or a failed dataset) is one.
#include <algorithm>
#include <climits>
#include <optional>

#include "common/log.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/prefix_window.hpp"
#include "runtime/runtime.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "runtime/transfer/fetch.hpp"
#include "runtime/transfer/rescale.hpp"

namespace scr::rt {
namespace {

void warn_unknown(const Job& job, const char* call, const std::string& name) {
  if (job.rank() == 0)
    log::warn(std::string(call) + ": no dataset named '" + name + "' in cache or in the prefix index; nothing changed");
}

// Collective: forget and delete the cached datasets whose id is above `id`,
// lowest first (waiting for a flush of one that is in flight).
Status delete_cached_after(const Job& job, CacheCatalog& cache, const WaitFlushed& wait_flushed, int id) {
  int after = id;
  for (;;) {
    int64_t mine = INT_MAX;
    for (int d : cache.ids())
      if (d > after && d < mine) mine = d;
    int64_t next = mpi::min(job.world, mine);
    if (next == INT_MAX) return Status::Ok();
    after = static_cast<int>(next);
    SCR_TRY(delete_cached_agreed(job, cache, after, wait_flushed));
  }
}

}  // namespace

// Collective: every background flush finished and recorded, as a
// synchronous one would be by now. SCR_Current and SCR_Drop edit the index,
// which a flush still in flight would edit after them (a newer checkpoint
// made CURRENT again, a dropped dataset listed again). The call still does
// what it was asked; a flush that failed is then its error, as it is the
// error of the SCR_Start_output that finishes it.
Status Runtime::finish_flushes() { return ctx_.flusher->poll(true); }

int Runtime::cached_by_name(const std::string& name) {
  int id = static_cast<int>(mpi::max(ctx_.world, static_cast<int64_t>(ctx_.cache.find_name(name))));
  if (id <= 0 || !mpi::any_true(ctx_.world, ctx_.cache.bypass(id))) return id;
  // A checkpoint read in place from the prefix stands for its name only
  // while the index lists it loadable: SCR_PREFIX_SIZE's window, after a
  // newer checkpoint's flush, may have deleted it.
  bool listed = false;
  if (ctx_.rank() == 0)
    if (auto idx = PrefixIndex::load(ctx_.fs(), ctx_.settings.prefix)) listed = idx->loadable(id);
  return mpi::any_true(ctx_.world, listed) ? id : 0;
}

// SCR_Current(name): the named checkpoint becomes the one a restart loads.
// Cached datasets newer than it are deleted from cache; the prefix index
// marks it CURRENT; if no restart was loaded yet in this run, SCR_Have_restart
// now offers it (from cache, or fetched from the prefix). Dataset ids never
// go backwards: the prefix may still list newer datasets, and a new dataset
// must not reuse their ids, so new datasets are numbered after all of them.
Status Runtime::set_current(const std::string& name) {
  if (ctx_.phase() != Phase::idle) return Error(Errc::bad_state, "SCR_Current inside a phase");
  Status flushed = finish_flushes();
  Status st = set_current_now(name);
  return st.ok() ? flushed : st;
}

Status Runtime::set_current_now(const std::string& name) {
  int cached = cached_by_name(name);
  if (cached > 0) {
    auto ckpts = cached_checkpoints(ctx_.job, ctx_.cache);
    if (std::find(ckpts.begin(), ckpts.end(), cached) == ckpts.end())
      return Error(Errc::invalid_argument, "dataset '" + name + "' is not a complete checkpoint in cache");
  }
  int indexed = 0;
  SCR_TRY(edit_index(ctx_.job, [&](PrefixIndex& idx) {
    auto id = idx.find_name(name);
    if (!id) return Status::Ok();
    if (!idx.loadable(*id))
      return Error(Errc::invalid_argument, "dataset '" + name + "' is not a complete checkpoint in the prefix");
    idx.set_current(name);
    indexed = *id;
    return Status::Ok();
  }));
  indexed = static_cast<int>(mpi::max(ctx_.world, static_cast<int64_t>(indexed)));
  if (cached <= 0 && indexed <= 0) {
    warn_unknown(ctx_.job, "SCR_Current", name);
    return Status::Ok();
  }
  int id = cached > 0 ? cached : indexed;
  SCR_TRY(delete_cached_after(ctx_.job, ctx_.cache, ctx_.wait_flushed(), id));
  ctx_.current = name;  // the fetch order starts with it
  if (ctx_.restart_loaded) return Status::Ok();
  SCR_TRY(drop_rescaled(ctx_.job, ctx_.rescaled));
  ctx_.restart_candidates.offer(cached_checkpoints(ctx_.job, ctx_.cache));
  if (ctx_.restart_candidates.empty() || ctx_.restart_candidates.front() != id) {
    ctx_.restart_candidates.clear();
    if (ctx_.settings.fetch) SCR_TRY(offer_fetched());
  }
  return Status::Ok();
}

Status Runtime::drop(const std::string& name) {
  if (ctx_.phase() != Phase::idle) return Error(Errc::bad_state, "SCR_Drop inside a phase");
  Status flushed = finish_flushes();
  int64_t found = 0;
  SCR_TRY(edit_index(ctx_.job, [&](PrefixIndex& idx) {
    auto id = idx.find_name(name);
    if (!id) return Status::Ok();
    found = *id;
    idx.forget(*id);
    return Status::Ok();
  }));
  int dropped = static_cast<int>(mpi::max(ctx_.world, found));
  if (dropped == 0) warn_unknown(ctx_.job, "SCR_Drop", name);
  // A checkpoint read in place from the prefix is no longer one to restart
  // from once the index forgets it (nor the newest SCR_Finalize compares).
  if (dropped > 0 && mpi::any_true(ctx_.world, ctx_.cache.bypass(dropped))) {
    SCR_TRY(delete_cached_agreed(ctx_.job, ctx_.cache, dropped, ctx_.wait_flushed()));
    ctx_.restart_candidates.withdraw(dropped);
  }
  return flushed;
}

Status Runtime::remove(const std::string& name) {
  if (ctx_.phase() != Phase::idle) return Error(Errc::bad_state, "SCR_Delete inside a phase");
  bool found_cache = false;
  if (int id = cached_by_name(name); id > 0) {
    found_cache = true;
    SCR_TRY(delete_cached_agreed(ctx_.job, ctx_.cache, id, ctx_.wait_flushed()));
    ctx_.restart_candidates.withdraw(id);
  }
  if (ctx_.rescaled && DatasetInfo::from_tree(ctx_.rescaled->desc).name == name) {  // offered at another size
    ctx_.restart_candidates.clear();
    SCR_TRY(drop_rescaled(ctx_.job, ctx_.rescaled));
  }
  // The entry goes first, the files once the index without it is saved: a
  // failure then leaves files unlisted, never a listed checkpoint whose
  // files are gone.
  std::optional<int> unlisted;
  PrefixIndex rest;  // the index without it: which files other datasets still name
  SCR_TRY(edit_index(ctx_.job, [&](PrefixIndex& idx) {
    unlisted = idx.find_name(name);
    if (unlisted) idx.forget(*unlisted);
    rest = idx;
    return Status::Ok();
  }));
  Status deleted;
  if (unlisted) deleted = delete_prefix_files(ctx_.fs(), ctx_.settings.prefix, *unlisted, &rest);
  if (!deleted.ok())
    deleted = Error(deleted.code(), name + " is no longer listed in the prefix, but files of it stay there: " +
                                        deleted.message());
  SCR_TRY(mpi::agree(ctx_.world, deleted));
  if (!found_cache && !mpi::any_true(ctx_.world, unlisted.has_value())) warn_unknown(ctx_.job, "SCR_Delete", name);
  return Status::Ok();
}

}  // namespace scr::rt
