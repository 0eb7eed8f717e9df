// Restart phases: SCR_Have_restart, SCR_Start_restart, SCR_Route_file inside
// a restart, SCR_Complete_restart (falling back to older checkpoints).
#include <algorithm>
#include <map>
#include <unordered_set>

#include "common/log.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/names_seen.hpp"
#include "runtime/runtime.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "runtime/transfer/fetch.hpp"
#include "runtime/transfer/rescale.hpp"

namespace scr::rt {
namespace {

std::string dataset_name(const Context& ctx, int id) {
  if (ctx.rescaled && ctx.rescaled->id == id) return DatasetInfo::from_tree(ctx.rescaled->desc).name;
  auto info = ctx.cache.info(id);
  return info ? info->name : "";
}

// Lists built just before by processes of this job.
std::vector<kv::FileRecord> files_or_none(const kv::Tree& t) {
  auto files = kv::get_file_list(t, "FILELIST");
  return files ? std::move(files).value() : std::vector<kv::FileRecord>{};
}

// Collective: the restart file table of a checkpoint of this job's size, for
// the listing API. Each process lists its own files with their sizes; rank 0
// merges them (a shared file under its lowest rank) and writes the table,
// which the processes read piece by piece: none holds the whole list.
Status write_listing(const Job& job, const CacheCatalog& cache, int id) {
  // Sizes as the filemap recorded them when the files were last checked
  // (Complete, the rebuild or the fetch at SCR_Init): no file is touched.
  std::vector<kv::FileRecord> mine = cache.file_records(id);
  for (auto& f : mine) f.crc.reset();  // the listing carries names and sizes
  kv::Tree listed;
  kv::put_file_list(listed, "FILELIST", mine);
  auto got = mpi::gather_trees(job.world, listed, 0);
  Status written;
  if (job.rank() == 0) {
    std::vector<TableFile> all;
    NamesSeen<TableFile> seen(all);
    for (const auto& [r, tree] : got)  // by rank
      for (auto& f : files_or_none(tree))
        if (seen.first(f.name)) all.push_back({std::move(f.name), r, f.size, std::nullopt, all.size()});
    written = write_restart_table(job.fs(), restart_table_path(job.settings.prefix, id), job.ranks(), all, false);
  }
  return mpi::agree(job.world, written);
}

}  // namespace

Status Runtime::have_restart(bool* flag, std::string* name) {
  if (ctx_.phase() == Phase::output)
    return Error(Errc::bad_state, "SCR_Have_restart called inside an output phase");
  *flag = !ctx_.restart_candidates.empty() && ctx_.phase() == Phase::idle;
  *name = *flag ? dataset_name(ctx_, ctx_.restart_candidates.front()) : "";
  return Status::Ok();
}

Result<std::string> Runtime::start_restart() {
  if (ctx_.phase() != Phase::idle)
    return Error(Errc::bad_state, "SCR_Start_restart called inside another phase");
  if (ctx_.restart_candidates.empty())
    return Error(Errc::bad_state, "SCR_Start_restart called but there is no checkpoint to restart from "
                                  "(check SCR_Have_restart first)");
  int id = ctx_.restart_candidates.front();
  // At another size the table was written when the checkpoint was loaded.
  Status written = ctx_.rescaled ? Status::Ok() : write_listing(ctx_.job, ctx_.cache, id);
  std::string table = ctx_.rescaled ? ctx_.rescaled->table_path : restart_table_path(ctx_.settings.prefix, id);
  Result<RestartTable> listing = written.ok() ? RestartTable::open(ctx_.fs(), table) : Result<RestartTable>(written);
  Status opened = mpi::agree(ctx_.world, listing.status());
  // Routing at another size reads the table: without it there is no restart.
  if (ctx_.rescaled) SCR_TRY(opened);
  if (!opened.ok()) {
    listing = opened.with_context("the restart listing could not be prepared in " +
                                  prefix_scr_dir(ctx_.settings.prefix));
    if (ctx_.rank() == 0) log::warn(listing.status().message() + "; the restart goes on without it");
  }
  RestartPhase& phase = ctx_.restart.emplace();
  ctx_.events.record({"RESTART_START", dataset_name(ctx_, id), id, -1, -1, ""});
  phase.name = dataset_name(ctx_, id);
  phase.listing = std::move(listing);
  phase.writers = ctx_.rescaled ? ctx_.rescaled->writers : ctx_.ranks();
  if (ctx_.rescaled) return phase.name;
  phase.in_prefix = ctx_.cache.bypass(id);
  phase.dir = phase.in_prefix ? ctx_.settings.prefix : ctx_.cache.dataset_dir(id);
  // Looked up once per routed file: a set, not the filemap's list.
  auto files = ctx_.cache.files(id);
  phase.files = std::unordered_set<std::string>(files.begin(), files.end());
  return phase.name;
}

Result<std::string> Runtime::route_restart_file(const std::string& rel, bool bare) {
  if (ctx_.rescaled) return route_rescaled(ctx_.job, *ctx_.rescaled, rel, bare);
  RestartPhase& r = *ctx_.restart;
  // Read in place in the prefix: a bypass dataset, or SCR_FETCH_BYPASS.
  bool bypass = r.in_prefix;
  auto holds = [&](const std::string& n) { return r.files.count(n) > 0; };
  auto by_base = [&](const std::string& base) -> Result<std::vector<std::string>> {
    return r.basenames.lookup(base, [&] { return std::vector<std::string>(r.files.begin(), r.files.end()); });
  };
  SCR_ASSIGN_OR_RETURN(RestartName routed,
                       restart_name(rel, bare, holds, by_base, bypass ? prefix_file(ctx_.fs(), ctx_.settings.prefix) : NameTest(),
                                    "checkpoint " + r.name + " for this process"));
  const std::string& name = routed.name;
  std::string path = io::path::join(r.dir, name);
  // Checked as SCR 3.1 checks it (an access() there): a file gone from
  // cache since SCR_Start_restart fails its route, not the application's open.
  // By its full path: a directory held open for the phase would cost every
  // process a descriptor (simulated ranks share one process's limit).
  auto info = ctx_.fs().stat(path);
  if (!info || !info->is_regular())
    return Error(Errc::not_found, "checkpoint file " + name + " is missing from cache");
  return path;
}

Result<int> Runtime::restart_ranks() const {
  if (ctx_.phase() != Phase::restart)
    return Error(Errc::bad_state, "the checkpoint's process count is known inside a restart phase only");
  return ctx_.restart->writers;
}

Result<RestartTable*> Runtime::restart_listing() {
  if (ctx_.phase() != Phase::restart)
    return Error(Errc::bad_state, "the checkpoint's files are listed inside a restart phase only");
  if (!ctx_.restart->listing) return ctx_.restart->listing.status();
  return &ctx_.restart->listing.value();
}

std::string Runtime::routable_name(const std::string& prefix_relative) const {
  std::string abs = io::path::join(ctx_.settings.prefix, prefix_relative);
  auto from_cwd = io::path::relative_to(ctx_.settings.working_dir, abs);
  return from_cwd && *from_cwd != "." ? *from_cwd : abs;
}

Status Runtime::complete_restart(bool valid) {
  if (ctx_.phase() != Phase::restart)
    return Error(Errc::bad_state, "SCR_Complete_restart called without SCR_Start_restart");
  ctx_.restart.reset();
  // A file that failed its check on any process fails the restart there.
  if (ctx_.rescaled && ctx_.rescaled->failed) valid = false;
  bool all_valid = mpi::all_true(ctx_.world, valid);
  // Every process has closed the listing. At another size the table serves
  // routes until the checkpoint is dropped.
  if (!ctx_.rescaled && ctx_.rank() == 0)
    (void)io::remove_file(ctx_.fs(), restart_table_path(ctx_.settings.prefix, ctx_.restart_candidates.front()));
  if (all_valid) {
    int id = ctx_.restart_candidates.front();
    ctx_.events.record({"RESTART_COMPLETE", dataset_name(ctx_, id), id, -1, -1, ""});
    // Read at another size: the copies were only for this restart.
    SCR_TRY(drop_rescaled(ctx_.job, ctx_.rescaled));
    ctx_.restart_candidates.clear();
    ctx_.restart_loaded = true;
    return Status::Ok();
  }
  std::string name = dataset_name(ctx_, ctx_.restart_candidates.front());
  ctx_.events.record({"RESTART_REJECTED", name, ctx_.restart_candidates.front(), -1, -1,
                      "invalid on at least one process"});
  SCR_TRY(reject_restart());
  return Error(Errc::invalid_argument, "restart from " + name +
                                           " was invalid on at least one process; " +
                                           (ctx_.restart_candidates.empty()
                                                ? "no older checkpoint is left"
                                                : "the next older checkpoint is loaded"));
}

// Forget the checkpoint the application could not use, and load the next
// older one from cache or from the prefix.
Status Runtime::reject_restart() {
  int id = ctx_.restart_candidates.front();
  ctx_.restart_candidates.withdraw(id);
  if (ctx_.rescaled) {
    SCR_TRY(ctx_.flusher->wait_for(id));
    SCR_TRY(drop_rescaled(ctx_.job, ctx_.rescaled));
  } else {
    SCR_TRY(delete_cached_agreed(ctx_.job, ctx_.cache, id, ctx_.wait_flushed()));
  }
  SCR_TRY(edit_index(ctx_.job, [&](PrefixIndex& idx) {
    if (!idx.has(id)) return Status::Ok();
    idx.mark_failed(id);
    if (idx.current() == idx.find(id)->value_or("NAME", "")) idx.clear_current();
    return Status::Ok();
  }));
  if (ctx_.restart_candidates.empty() && ctx_.settings.fetch) SCR_TRY(offer_fetched());
  return Status::Ok();
}

Status Runtime::offer_fetched() {
  FetchInto into{ctx_.cache, ctx_.sets, ctx_.events, ctx_.rescaled};
  SCR_ASSIGN_OR_RETURN(int fetched, fetch_checkpoint(ctx_.job, into, ctx_.current));
  ctx_.restart_candidates.offer_fetched(fetched);
  return Status::Ok();
}

}  // namespace scr::rt
