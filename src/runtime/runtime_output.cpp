// Output phases: SCR_Need_checkpoint, SCR_Start_output/checkpoint,
// SCR_Route_file inside a phase, SCR_Complete_output/checkpoint.
#include <cstdlib>

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/meta.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/halt.hpp"
#include "runtime/runtime.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "runtime/transfer/bypass.hpp"
#include "runtime/transfer/flush.hpp"
#include "runtime/transfer/rescale.hpp"
#include "runtime/transfer/shared_names.hpp"

namespace scr::rt {

Result<bool> Runtime::need_checkpoint() {
  if (ctx_.phase() != Phase::idle)
    return Error(Errc::bad_state, "SCR_Need_checkpoint called inside an output or restart phase");
  const Settings& s = ctx_.settings;
  SCR_TRY(ctx_.flusher->poll(false));
  ++ctx_.timing.need_calls;
  bool halting = !check_halt(ctx_.job).empty();
  int decide = 0;
  if (ctx_.rank() == 0) {
    double now = wall_seconds();
    // No rule configured: no (SCR 3.1's parameter reference), unless a halt
    // is pending, so the job can save its state before it stops.
    bool yes = halting;
    if (s.checkpoint_interval > 0 && ctx_.timing.need_calls % s.checkpoint_interval == 0) yes = true;
    if (s.checkpoint_seconds > 0 &&
        now - ctx_.timing.last_checkpoint_end >= static_cast<double>(s.checkpoint_seconds))
      yes = true;
    if (s.checkpoint_overhead > 0) {
      // SCR 3.1's rule: with no checkpoint yet, take one to learn its cost;
      // then checkpoint when one of average cost, taken now, would be below
      // the allowed share of the time since the last one ended. (A share of
      // the whole run would say yes at several calls in a row after a long
      // stretch without a checkpoint.)
      const Timing& t = ctx_.timing;
      if (t.checkpoints == 0) {
        yes = true;
      } else {
        double cost = t.checkpoint_total / t.checkpoints;
        if (100.0 * cost / (now - t.last_checkpoint_end + cost) < s.checkpoint_overhead) yes = true;
      }
    }
    decide = yes ? 1 : 0;
    if (s.checkpoint_interval <= 0 && s.checkpoint_seconds <= 0 && s.checkpoint_overhead <= 0)
      // A program that checkpoints only when told to would never checkpoint.
      log::warn_once("SCR_Need_checkpoint: none of SCR_CHECKPOINT_INTERVAL, SCR_CHECKPOINT_SECONDS and "
                     "SCR_CHECKPOINT_OVERHEAD is set, so it answers 0 unless a halt is pending");
  }
  mpi::bcast_int(ctx_.world, decide, 0);
  return decide != 0;
}

namespace {

// A dataset name must come back intact from SCR_Have_restart (a buffer of
// SCR_MAX_FILENAME bytes) and from the index; it names no directory, so
// only '/' and control characters are refused besides the length.
Status check_dataset_name(const std::string& name) {
  constexpr size_t kMaxName = 1023;  // SCR_MAX_FILENAME - 1
  std::string why;
  if (name.size() > kMaxName) why = "it is longer than " + std::to_string(kMaxName) + " bytes";
  else if (name == "." || name == "..") why = "'.' and '..' are not names";
  for (char c : name) {
    if (!why.empty()) break;
    if (c == '/') why = "it contains '/'";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) why = "it contains a control character";
  }
  if (why.empty()) return Status::Ok();
  return Error(Errc::invalid_argument,
               "dataset name '" + name.substr(0, 64) + (name.size() > 64 ? "...'" : "'") + " is not allowed: " + why);
}

}  // namespace

// What SCR_Start_output refuses on this process alone.
Status Runtime::check_start_output(const std::string& name, int flags) const {
  if (ctx_.phase() == Phase::output)
    return Error(Errc::bad_state, "SCR_Start_output called while dataset '" +
                                      DatasetInfo::from_tree(ctx_.output->desc).name + "' is still open");
  if (ctx_.phase() == Phase::restart)
    return Error(Errc::bad_state, "SCR_Start_output called inside a restart phase; call SCR_Complete_restart first");
  if ((flags & ~(kFlagCheckpoint | kFlagOutput)) != 0 || flags == 0)
    return Error(Errc::invalid_argument, "SCR_Start_output flags " + std::to_string(flags) +
                                             " must be SCR_FLAG_CHECKPOINT and/or SCR_FLAG_OUTPUT");
  if (!name.empty()) SCR_TRY(check_dataset_name(name));
  return Status::Ok();
}

Status Runtime::start_output(const std::string& name, int flags) {
  // Refused on every process or none, and the same dataset everywhere, as
  // SCR requires (it aborts the job when names or flags differ): rank 0's
  // name would otherwise name the files of processes that meant another.
  Status args = check_start_output(name, flags);
  std::string mine = name + '\n' + std::to_string(flags), first = mine;
  mpi::bcast_string(ctx_.world, first, 0);
  if (args.ok() && first != mine)
    args = Error(Errc::invalid_argument, "SCR_Start_output(\"" + name + "\", " + std::to_string(flags) +
                                             ") differs from rank 0's (\"" + first.substr(0, first.rfind('\n')) +
                                             "\", " + first.substr(first.rfind('\n') + 1) +
                                             "): every process must pass the same name and flags");
  // A process says its own reason; the others name the first that refused.
  SCR_TRY(mpi::agree_own(ctx_.world, args));
  // Starting a new dataset abandons a restart that was offered but not taken.
  ctx_.restart_candidates.clear();
  SCR_TRY(drop_rescaled(ctx_.job, ctx_.rescaled));
  SCR_TRY(ctx_.flusher->poll(false));
  ctx_.world.barrier();
  ctx_.timing.phase_start = wall_seconds();

  // The ids are taken only once the waits below went through: a call that
  // fails on them leaves the next one the same checkpoint number, and so the
  // same descriptor (INTERVAL).
  auto [id, ckpt] = ctx_.cache.next_ids(flags & kFlagCheckpoint);
  const RedDesc& p =
      select(ctx_.settings.reds, ckpt, {(flags & kFlagCheckpoint) != 0, (flags & kFlagOutput) != 0});
  if (ckpt > 0 && !p.bypass) SCR_TRY(evict_for_checkpoint(ctx_.job, ctx_.cache, p, ctx_.wait_flushed()));
  // Written straight into the prefix, perhaps under the names a background
  // flush is still copying to (applications reuse them): that flush ends
  // first, or both would write one file.
  if (p.bypass) SCR_TRY(finish_flushes());
  ctx_.cache.reserve_ids(id, ckpt);

  kv::Tree desc;
  if (ctx_.rank() == 0)
    desc = make_descriptor({id, name, flags, ckpt, ctx_.id.user, ctx_.id.job_id, ctx_.settings.cluster_name,
                            ctx_.settings.job_name, p.store, p.bypass});
  mpi::bcast_tree(ctx_.world, desc, 0);
  if (p.bypass) {
    SCR_TRY(begin_bypass(ctx_.job, id, desc));
  } else {
    // Listed before its directory is made: an interrupted dataset is found
    // and removed whole at the next Init.
    ctx_.cache.begin(id, desc, p.store);
    Status st = ctx_.cache.commit();
    if (st.ok())
      st = io::make_dirs_within(ctx_.fs(), ctx_.cache.cache_dir(p.store), ctx_.cache.dataset_dir(p.store, id), 0700);
    SCR_TRY(mpi::agree(ctx_.world, st));
  }

  ctx_.events.record({"DATASET_START", DatasetInfo::from_tree(desc).name, id, -1, -1,
                      ckpt > 0 ? "checkpoint" : "output"});
  OutputPhase& phase = ctx_.output.emplace();
  phase.id = id;
  phase.desc = desc;
  phase.protection = &p;
  phase.dir = p.bypass ? ctx_.settings.prefix : ctx_.cache.dataset_dir(p.store, id);
  return Status::Ok();
}

Result<std::string> Runtime::prefix_relative(const std::string& name) const {
  if (name.empty()) return Error(Errc::invalid_argument, "empty file name");
  if (name.size() >= 1024) return Error(Errc::invalid_argument, "file name longer than SCR_MAX_FILENAME");
  // As in SCR, relative names start in the working directory, which must
  // then lie inside the prefix (docs/runtime.md#names).
  // The common case, once per file of a checkpoint of many: a plain relative
  // name (no "." or ".." in it) below a working directory inside the prefix.
  const auto& cwd_in_prefix = working_dir_in_prefix_;
  if (cwd_in_prefix && !io::path::is_absolute(name) && io::path::is_normal(name)) {
    std::string rel = cwd_in_prefix->empty() ? name : *cwd_in_prefix + "/" + name;
    if (!str::starts_with(rel, ".scr/") && rel != ".scr") return rel;
  }
  std::string abs = io::path::absolute(name, ctx_.settings.working_dir);
  auto rel = io::path::relative_to(ctx_.settings.prefix, abs);
  if (!rel || *rel == "." || str::starts_with(*rel, ".scr/") || *rel == ".scr")
    return Error(Errc::invalid_argument,
                 "file '" + name + "' (" + abs + ") is outside the prefix directory " + ctx_.settings.prefix +
                     " (or inside its .scr)" +
                     (io::path::is_absolute(name) ? std::string()
                                                  : "; relative names start in the working directory of "
                                                    "SCR_Init, " + ctx_.settings.working_dir +
                                                        ", which must lie inside the prefix"));
  return rel;
}

Result<std::string> Runtime::route_file(const std::string& name) {
  if (ctx_.phase() == Phase::idle) return name;
  SCR_ASSIGN_OR_RETURN(std::string rel, prefix_relative(name));
  // A bare file name may name a checkpoint file in any directory.
  if (ctx_.phase() == Phase::restart) return route_restart_file(rel, name.find('/') == std::string::npos);
  // Recorded in memory only: the filemap is written once, at Complete (an
  // interrupted dataset's directory is removed whole at the next Init).
  OutputPhase& out = *ctx_.output;
  bool bypass = out.protection->bypass;
  const std::string& dir = out.dir;
  std::string path = io::path::join(dir, rel);
  // Each directory is checked (made, no link on the way) once per phase: a
  // checkpoint of many files in few directories pays for the directories,
  // not once per file.
  std::string parent = io::path::dirname(path);
  if (!out.dirs.count(parent)) {
    SCR_TRY(io::make_dirs_within(ctx_.fs(), dir, parent, bypass ? 0755 : 0700));
    out.dirs.insert(parent);
  }
  out.routed.insert(rel);
  return path;
}

Status Runtime::complete_output(bool valid) {
  if (ctx_.phase() != Phase::output)
    return Error(Errc::bad_state, "SCR_Complete_output called without SCR_Start_output");
  Status st = finish_output(valid);
  Status polled = ctx_.flusher->poll(false);
  return st.ok() ? polled : st;
}

Status Runtime::finish_output(bool valid) {
  // The phase ends here, whatever the outcome.
  OutputPhase out = std::move(*ctx_.output);
  ctx_.output.reset();
  DatasetInfo info = DatasetInfo::from_tree(out.desc);
  Status st = out.protection->bypass ? complete_bypass(ctx_.job, ctx_.cache, ctx_.events, out.id, out.desc, out.routed, valid,
                                                           ctx_.timing.phase_start)
                                     : complete_cached(out, valid);
  double seconds = wall_seconds() - ctx_.timing.phase_start;
  if (info.is_checkpoint()) {
    // The cost SCR_CHECKPOINT_OVERHEAD weighs, and the end
    // SCR_CHECKPOINT_SECONDS and the overhead count from: a failed
    // checkpoint's too, as in SCR 3.1, so that a job whose checkpoints fail
    // (a full cache) is not asked for another at every call.
    // SCR_CHECKPOINT_INTERVAL keeps counting calls from SCR_Init, as in SCR:
    // a checkpoint the application takes unasked does not move the next yes.
    ctx_.timing.checkpoint_total += seconds;
    ++ctx_.timing.checkpoints;
    ctx_.timing.last_checkpoint_end = wall_seconds();
  }
  const char* done = info.is_checkpoint() ? "CHECKPOINT_COMPLETE" : "OUTPUT_COMPLETE";
  ctx_.events.record({st.ok() ? done : "DATASET_FAILED", info.name, info.id, seconds, -1,
                      st.ok() ? "" : st.message()});
  if (!st.ok() || !info.is_checkpoint()) return st;
  return after_checkpoint();
}

// A file routed by processes on several nodes has several different copies
// in cache, one per node: no redundancy scheme can make that one file.
Status Runtime::check_not_shared_across_nodes(const OutputPhase& out) {
  Status local;
  std::vector<std::string> names(out.routed.begin(), out.routed.end());
  for (const auto& [name, shared] : survey_shared_names(ctx_.world, ctx_.id.node, names)) {
    if (shared.nodes.size() < 2) continue;
    std::string nodes;
    for (const auto& n : shared.nodes) nodes += (nodes.empty() ? "" : ", ") + n;
    local = Error(Errc::invalid_argument,
                  "file " + name + " was routed by processes on more than one node (" + nodes +
                      "); a file shared across nodes cannot be cached: set SCR_CACHE_BYPASS=1 "
                      "(or BYPASS=1 on the checkpoint descriptor) to write it to the prefix directly");
    break;
  }
  return mpi::agree(ctx_.world, local);
}

Status Runtime::complete_cached(const OutputPhase& out, bool valid) {
  int id = out.id;
  std::vector<std::string> names(out.routed.begin(), out.routed.end());
  ctx_.cache.record_routed(id, names);
  // Every routed file must exist: a rank that says valid but never wrote a
  // file it routed has not produced a valid dataset. The one stat per file
  // that checks it is also the metadata the redundancy headers record.
  std::string dir = ctx_.cache.dataset_dir(id);
  auto described = redset::describe_files(ctx_.fs(), dir, names);
  Status local = described.status().with_context("a routed file was not written");
  int64_t my_bytes = 0;
  if (described)
    if (auto listed = redset::files_from_tree(*described))
      my_bytes = static_cast<int64_t>(redset::total_size(*listed));
  if (!local.ok() && valid) log::error(local.message());
  bool all_valid = mpi::all_true(ctx_.world, valid && local.ok());
  DatasetInfo info = DatasetInfo::from_tree(out.desc);
  if (!all_valid) {
    (void)delete_cached(ctx_.job, ctx_.cache, id);
    return Error(Errc::invalid_argument,
                 "dataset " + info.name + " is invalid on at least one process; discarded");
  }
  if (Status shared = check_not_shared_across_nodes(out); !shared.ok()) {
    (void)delete_cached(ctx_.job, ctx_.cache, id);
    return shared.with_context("dataset " + info.name + " discarded");
  }

  Status st = protect_dataset(ctx_.job, ctx_.cache, ctx_.sets, id, *out.protection, std::move(*described));
  if (!st.ok()) {
    (void)delete_cached(ctx_.job, ctx_.cache, id);
    return st.with_context("protecting dataset " + info.name);
  }
  int64_t bytes = mpi::sum(ctx_.world, my_bytes);
  int64_t files = mpi::sum(ctx_.world, static_cast<int64_t>(out.routed.size()));
  ctx_.cache.record_totals(id, bytes, files);
  SCR_TRY(ctx_.cache.transition(id, CacheState::complete));
  SCR_TRY(ctx_.cache.commit_agreed(ctx_.world));

  if (flush_due(ctx_.settings, info)) {
    if (ctx_.settings.flush_async) SCR_TRY(ctx_.flusher->start(id));
    else SCR_TRY(flush_dataset(ctx_.job, ctx_.cache, ctx_.events, id));
  }
  return Status::Ok();
}

// Halt bookkeeping after a checkpoint; with SCR_HALT_EXIT the job stops here.
Status Runtime::after_checkpoint() {
  count_down_checkpoints(ctx_.job);
  exit_if_halted("after checkpoint");
  return Status::Ok();
}

// As SCR does, at SCR_Init and after each checkpoint: the process exits with
// status 0 once the run is finalized (its newest checkpoint flushed).
void Runtime::exit_if_halted(const char* where) {
  if (!ctx_.settings.halt_exit) return;
  std::string reason = check_halt(ctx_.job);
  if (reason.empty()) return;
  ctx_.events.record({"HALT", "", 0, -1, -1, reason});
  if (ctx_.rank() == 0) log::warn(std::string("halting ") + where + ": " + reason);
  record_halt_exit(ctx_.job, ctx_.finalized_at_start);
  Status st = finalize();
  job_.world.shut_down();
  std::exit(st.ok() ? 0 : 1);
}

}  // namespace scr::rt
