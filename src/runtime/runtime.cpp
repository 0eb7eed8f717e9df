// SCR_Init, SCR_Finalize and SCR_Should_exit.
#include "runtime/runtime.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/log.hpp"
#include "io/fault_plan.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "runtime/cache/cache.hpp"
#include "runtime/config/params.hpp"
#include "runtime/halt.hpp"
#include "runtime/job/index_edit.hpp"
#include "runtime/prefix/prefix_window.hpp"
#include "runtime/rebuild.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "runtime/transfer/fetch.hpp"
#include "runtime/transfer/flush.hpp"
#include "runtime/transfer/rescale.hpp"

namespace scr::rt {
namespace {

// Rank 0 resolves the configuration; everyone gets its values. What
// SCR_Config set must be the same on every process, as SCR requires (it
// aborts the job otherwise): rank 0's values would silently replace
// another's, which its own SCR_Config queries would still answer.
Result<Settings> agreed_settings(const mpi::Comm& world, const Config& config) {
  std::string mine = kv::encode(config.layer(Layer::app).to_tree()), first = mine;
  mpi::bcast_string(world, first, 0);
  Status same = first == mine ? Status::Ok()
                              : Error(Errc::invalid_argument,
                                      "the values SCR_Config set on this process differ from rank 0's: call "
                                      "SCR_Config with the same strings on every process (or a call that "
                                      "failed on some processes only: see their errors above)");
  SCR_TRY(mpi::agree_own(world, same));
  kv::Tree tree;
  if (world.rank() == 0) tree = config.to_tree();
  mpi::bcast_tree(world, tree, 0);
  auto resolved = Config::from_tree(tree);
  Result<Settings> s = resolved ? settings_from_config(*resolved) : Result<Settings>(resolved.status());
  SCR_TRY(mpi::agree(world, s.status()));
  return s;
}

// Everything that becomes part of a node-local path comes from outside
// (environment, resource manager, host): checked before any directory is
// made from it, so no value can lead SCR++ out of its bases.
Status check_path_inputs(const Settings& s, const Identity& id) {
  auto check = [](const std::string& what, const std::string& value) -> Status {
    std::string why = io::path::component_problem(value);
    if (why.empty()) return Status::Ok();
    return Error(Errc::invalid_argument, what + " '" + value + "' cannot name a directory: " + why);
  };
  SCR_TRY(check("the user name (SCR_USER_NAME, else the login name)", id.user));
  SCR_TRY(check("the job id (SCR_JOB_ID, else the resource manager's)", id.job_id));
  SCR_TRY(check("the node name", id.node));
  for (const auto& [what, base] : {std::pair<std::string, std::string>{"SCR_CNTL_BASE", s.cntl_base},
                                   {"SCR_CACHE_BASE", s.cache_base}})
    if (!io::path::is_absolute(base))
      return Error(Errc::invalid_argument, what + "=" + base + ": must be an absolute path");
  for (const auto& p : s.reds)
    if (!io::path::is_absolute(p.store))
      return Error(Errc::invalid_argument, "store " + p.store + ": must be an absolute path");
  return Status::Ok();
}

// SCR_PREFIX_PURGE deletes every dataset of the prefix; SCR_DROP_AFTER_CURRENT
// forgets (keeping their files) the datasets newer than SCR_CURRENT.
Status apply_prefix_settings(const Job& job) {
  const Settings& s = job.settings;
  if (!s.prefix_purge && !(s.drop_after_current && !s.current.empty())) return Status::Ok();
  // A purge empties the index first and deletes the files once that is
  // saved: a failure then leaves files unlisted, never a listed checkpoint
  // whose files are gone.
  std::vector<int> purged;
  SCR_TRY(edit_index(job, [&](PrefixIndex& idx) {
    if (s.prefix_purge) {
      purged = idx.ids();
      for (int id : purged) idx.erase(id);
      idx.clear_current();
      return Status::Ok();
    }
    auto current = idx.find_name(s.current);
    if (!current) return Status::Ok();
    for (int id : idx.ids())
      if (id > *current) idx.erase(id);
    idx.set_current(s.current);
    return Status::Ok();
  }));
  Status deleted;
  for (int id : purged)
    if (Status st = delete_prefix_files(job.fs(), s.prefix, id, nullptr); deleted.ok()) deleted = st;
  if (!deleted.ok())
    deleted = Error(deleted.code(), "SCR_PREFIX_PURGE=1: the index of " + s.prefix +
                                        " lists no dataset now, but files of them stay there: " + deleted.message());
  else if (!purged.empty())
    log::info("SCR_PREFIX_PURGE=1: deleted every dataset of " + s.prefix);
  return mpi::agree(job.world, deleted);
}

// One job per prefix and per job directory: a second job on the same prefix
// would reuse dataset ids and overwrite the first one's index entries; two
// jobs with one job id on one node would share a cache. The locks die with
// their holders, so a relaunch after a crash is never blocked.
Status take_job_locks(Job& job) {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::string holder = "job " + job.id.job_id + " (host " + host + ", pid " + std::to_string(::getpid()) + ")";
  auto take = [&](const std::string& path, std::optional<io::FileLock>* slot, const std::string& what) -> Status {
    auto lock = io::FileLock::try_acquire(job.fs(), path, holder);
    if (lock) {
      slot->emplace(std::move(lock).value());
      return Status::Ok();
    }
    if (lock.status().code() == Errc::unsupported) {
      log::warn(lock.status().message() + "; cannot make sure no other job uses " + what);
      return Status::Ok();
    }
    // Held by another process: another job. Any other failure (a symlink
    // planted where the lock goes, an I/O error) is reported as it is.
    if (lock.status().code() == Errc::bad_state)
      return lock.status().with_context(std::string("another job is using ") + what);
    return lock.status().with_context(std::string("locking ") + what);
  };
  Status st;
  // Jobs of one launch on parts of it (SCRPP_Init_comm) meet here too when
  // they were given one prefix: the message says what to change.
  if (job.rank() == 0)
    st = take(prefix_lock_path(job.settings.prefix), &job.prefix_lock,
              "this prefix directory (" + job.settings.prefix +
                  "; one job per prefix: each SCR++ job, also each one of a launch, needs its own SCR_PREFIX)");
  SCR_TRY(mpi::agree(job.world, st));
  if (job.node.rank() == 0) st = take(io::path::join(job.cntl_dir, "job.lock"), &job.job_lock, "this job directory");
  return mpi::agree(job.world, st);
}

// <base>[/<node>]/<user>/scr.<jobid>: both the per-user directory and the
// job directory must be ours and closed to other users, or another user
// sharing the tmpfs could swap the job directory under us. The per-user
// directory is checked before the job directory is made in it.
Status make_private_job_dir(io::Env& fs, const std::string& base, const std::string& dir) {
  return io::make_own_dirs_within(fs, base, io::path::dirname(dir), dir, 0700, true);
}

}  // namespace

Runtime::~Runtime() = default;

namespace {

// SCR_FAULT_INJECT: the runtime's file system breaks as the plan says, in
// the test variant of the library; the one users link refuses
// (io/fault_plan.hpp).
Status inject_faults(Job& job) {
  SCR_ASSIGN_OR_RETURN(job.owned_env, io::env_with_faults(*job.env, job.settings.fault_inject));
  job.env = job.owned_env.get();
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<Runtime>> Runtime::init(const Config& config, const mpi::Comm& world,
                                                io::Env* fs) {
  return init(config, world, Launch{world.rank(), world.size()}, fs);
}

Result<std::unique_ptr<Runtime>> Runtime::init(const Config& config, const mpi::Comm& comm,
                                                const Launch& launch, io::Env* fs) {
  std::unique_ptr<Runtime> rt(new Runtime());
  SCR_TRY(rt->setup(config, comm, launch, fs));
  // Before any rebuild or fetch: a job told to stop spends nothing more.
  rt->exit_if_halted("at SCR_Init");
  SCR_TRY(rt->prepare_restart());
  // The computation starts now, as in SCR 3.1: SCR_CHECKPOINT_SECONDS and
  // the overhead count from here, not from before a rebuild or a fetch.
  rt->ctx_.timing.last_checkpoint_end = wall_seconds();
  return rt;
}

// Settles the Job (everything after this only reads it) and starts the run
// state: the event log and an empty cache catalog.
Status Runtime::setup(const Config& config, const mpi::Comm& world, const Launch& launch, io::Env* fs) {
  Job& job = job_;
  job.world = world.duplicate();
  log::set_rank(job.rank());
  ctx_.timing.run_start = wall_seconds();
  SCR_ASSIGN_OR_RETURN(job.settings, agreed_settings(job.world, config));
  Settings& s = job.settings;
  log::set_debug_level(s.debug);
  // Only where both are normal absolute paths does prefix_relative's common
  // case hold as written: the names it joins need no normalizing then.
  if (io::path::is_absolute(s.prefix) && io::path::is_absolute(s.working_dir) &&
      io::path::normalize(s.prefix) == s.prefix && io::path::normalize(s.working_dir) == s.working_dir)
    if (auto rel = io::path::relative_to(s.prefix, s.working_dir)) working_dir_in_prefix_ = *rel == "." ? "" : *rel;
  // The background flush is a second thread; the MPI standard allows one
  // only from the FUNNELED thread level on. An application that asked for
  // no thread support (the SINGLE level) gets synchronous flushes instead.
  if (s.flush_async && !mpi::all_true(job.world, job.world.threads_allowed())) {
    s.flush_async = false;
    if (job.rank() == 0)
      log::warn("SCR_FLUSH_ASYNC=1 needs MPI started with thread support of at least FUNNELED; "
                "this job's MPI provides less, so datasets are flushed synchronously");
  }
  if (job.rank() == 0)
    for (const auto& line : no_effect_warnings(config)) log::warn(line);
  if (job.rank() == 0)
    for (const auto& name : config.unknown_env_names())
      log::warn("ignoring unknown environment variable " + name + " (not an SCR parameter)" +
                did_you_mean(name));

  job.env = fs ? fs : &io::Env::posix();
  if (!s.fault_inject.empty()) SCR_TRY(mpi::agree(job.world, inject_faults(job)));

  auto node = node_name(s.sim_nodes, launch.rank, launch.size);
  SCR_TRY(mpi::agree(job.world, node.status()));
  job.id.node = *node;
  job.id.simulated = !s.sim_nodes.empty();
  job.id.user = user_name(s);
  // Every process of the job agrees: the launch has the same size everywhere.
  if (job.ranks() < launch.size) job.id.part = part_tag(s.prefix);
  Result<std::string> job_id = std::string();
  if (job.rank() == 0) job_id = resolve_job_id(job.fs(), s);
  SCR_TRY(mpi::agree(job.world, job_id.status()));
  job.id.job_id = job.rank() == 0 ? *job_id : "";
  mpi::bcast_string(job.world, job.id.job_id, 0);
  SCR_TRY(mpi::agree(job.world, check_path_inputs(s, job.id)));
  job.node = mpi::split_by_string(job.world, job.id.node);

  // Private node-local directories; the prefix's .scr directory.
  job.cntl_dir = job_dir(s.cntl_base, job.id);
  Status st = make_private_job_dir(job.fs(), s.cntl_base, job.cntl_dir);
  // A disabled store is never touched (it may not exist on these nodes).
  for (const auto& p : s.reds)
    if (st.ok() && p.enabled) st = make_private_job_dir(job.fs(), p.store, job.cache_dir(p.store));
  if (st.ok() && job.rank() == 0) st = make_prefix_scr_dir(job.fs(), s.prefix);
  SCR_TRY(mpi::agree(job.world, st));
  SCR_TRY(take_job_locks(job));

  ctx_.finalized_at_start = clear_finalized(ctx_.job);
  record_node_count(ctx_.job, mpi::sum(job.world, job.node.rank() == 0 ? 1 : 0));
  ctx_.current = s.current;
  ctx_.events = EventLog(job.fs(), s, job.id.job_id, job.id.user, job.rank() == 0);
  ctx_.events.record({"START", "", 0, -1, -1, std::to_string(job.ranks()) + " processes"});
  // Filled from this node's control directory by rebuild_cache/purge_cache.
  ctx_.cache.open(job.fs(), CacheLayout{job.cntl_dir, s.cache_base, job.id}, job.rank());
  return Status::Ok();
}

Status Runtime::prepare_restart() {
  const Settings& s = ctx_.settings;
  SCR_TRY(build_protection_sets(ctx_.job, ctx_.sets));
  // SCR_DISTRIBUTE=0 skips redistribution and rebuild: the cache is not
  // used at all (docs/runtime.md#restart).
  bool use_cache = s.distribute && !s.cache_purge;
  // First: a salvage below copies into the prefix, into the lists a killed
  // flush of the same dataset may have left (prefix/deferred.hpp).
  sweep_killed_flushes(ctx_.job);
  // Before the rebuild and redistribution, which need the memory spares hold.
  sweep_spares(ctx_.job);
  int in_place = 0;  // the newest checkpoint the filemaps listed as read in the prefix
  if (!use_cache) {
    if (ctx_.rank() == 0)
      log::info(s.cache_purge ? "SCR_CACHE_PURGE=1: deleting the cache"
                              : "SCR_DISTRIBUTE=0: not using cached datasets");
    SCR_TRY(purge_cache(ctx_.job, ctx_.cache));
  } else {
    SCR_TRY(rebuild_cache(ctx_.job, ctx_.cache, ctx_.events, &in_place));
  }
  sweep_rescaled(ctx_.job);
  set_aside_unreadable_index(ctx_.job);
  SCR_TRY(apply_prefix_settings(ctx_.job));
  if (in_place > 0) settle_in_place(in_place);
  if (ctx_.rescaled) ctx_.restart_candidates.offer({in_place});  // read at another size: not in the catalog
  else ctx_.restart_candidates.offer(cached_checkpoints(ctx_.job, ctx_.cache));
  learn_prefix(ctx_.job, ctx_.cache, ctx_.restart_candidates.ids());
  if (s.global_restart) {
    // Every process must read the checkpoint from the prefix.
    for (int id : ctx_.cache.ids()) (void)delete_cached(ctx_.job, ctx_.cache, id);
    ctx_.restart_candidates.clear();
  }
  if (ctx_.restart_candidates.empty() && s.fetch) SCR_TRY(offer_fetched());
  // (A checkpoint of another size is read from the prefix: nothing to flush.)
  if (s.flush_on_restart && !ctx_.restart_candidates.empty() && !ctx_.rescaled) {
    int id = ctx_.restart_candidates.front();
    if (!mpi::all_true(ctx_.world, ctx_.cache.state(id) == CacheState::flushed)) SCR_TRY(flush_dataset(ctx_.job, ctx_.cache, ctx_.events, id));
  }
  ctx_.world.barrier();
  return Status::Ok();
}

// The newest checkpoint written straight into the prefix (cache bypass),
// listed in the filemaps, is the restart's first choice when it is newer
// than every cached checkpoint, as the newest cached one would be: it is
// checked where it lies, as a fetch in place checks it, and listed again.
// Otherwise its entry is forgotten and the restart goes on without it
// (cached checkpoints first, then the fetch): after a purge of the prefix,
// when every process must read from the prefix anyway, when the prefix
// index no longer lists it as loadable (dropped, deleted, failed), or when
// the index's CURRENT names an older loadable checkpoint (an operator's or
// the application's choice to go back: scr_index --current, SCR_Current),
// or when no cached checkpoint is left and the fetch would load a newer one.
// SCR_CURRENT, which a job script may leave set for every relaunch, orders
// the fetch only, as in SCR: read here it would roll back at each one.
void Runtime::settle_in_place(int id) {
  const Settings& s = ctx_.settings;
  auto cached = cached_checkpoints(ctx_.job, ctx_.cache);
  std::erase(cached, id);
  bool wanted = !s.prefix_purge && !s.global_restart && (cached.empty() || cached.front() < id);
  if (wanted && ctx_.rank() == 0) {
    auto idx = PrefixIndex::load(ctx_.fs(), s.prefix);
    wanted = idx && idx->loadable(id);
    if (wanted) {
      auto named = idx->find_name(idx->current());
      wanted = !named || *named >= id || !idx->loadable(*named);
    }
    // With nothing left in cache the restart would fetch: not from this
    // one when the fetch loads a newer checkpoint first (flushed, then lost
    // from cache with its nodes).
    if (wanted && cached.empty() && s.fetch) {
      auto order = idx->fetch_order(s.current);
      wanted = order.empty() || order.front() <= id;
    }
  }
  wanted = mpi::any_true(ctx_.world, ctx_.rank() == 0 && wanted);
  if (!wanted) {
    if (ctx_.cache.has(id)) (void)delete_cached(ctx_.job, ctx_.cache, id);
    return;
  }
  ctx_.cache.forget(id);  // listed again once checked
  FetchInto into{ctx_.cache, ctx_.sets, ctx_.events, ctx_.rescaled};
  if (fetch_dataset(ctx_.job, into, id, false))
    if (auto info = ctx_.cache.info(id)) ctx_.cache.reserve_ids(id, info->ckpt);
}

Status Runtime::finalize() {
  if (finalized_) return Error(Errc::bad_state, "SCR_Finalize was already called");
  Status st;
  if (ctx_.phase() == Phase::output) {
    log::warn("SCR_Finalize called inside an output phase; the dataset is discarded");
    st = finish_output(false);
  }
  ctx_.output.reset();
  ctx_.restart.reset();
  Status dropped = drop_rescaled(ctx_.job, ctx_.rescaled);  // offered at another size, never taken
  if (st.ok()) st = dropped;
  Status waited = ctx_.flusher->poll(true);
  if (st.ok()) st = waited;
  // Flush the newest checkpoint if it is not in the prefix yet (unless
  // SCR_FLUSH=0 made flushing the application's business).
  auto ckpts = cached_checkpoints(ctx_.job, ctx_.cache);
  if (ctx_.settings.flush > 0 && !ckpts.empty() && !mpi::all_true(ctx_.world, ctx_.cache.state(ckpts.front()) == CacheState::flushed)) {
    Status fl = flush_dataset(ctx_.job, ctx_.cache, ctx_.events, ckpts.front());
    if (st.ok()) st = fl;
  }
  drop_spares(ctx_.job);
  record_finalized(ctx_.job);
  ctx_.sets.clear();  // their communicators go before MPI does
  ctx_.events.record({"END", "", 0, wall_seconds() - ctx_.timing.run_start, -1, st.ok() ? "ok" : st.message()});
  ctx_.world.barrier();
  finalized_ = true;
  job_.prefix_lock.reset();  // the run is over: other jobs may come
  job_.job_lock.reset();
  return st;
}

Result<bool> Runtime::should_exit() {
  std::string reason = check_halt(ctx_.job);
  if (!reason.empty() && !ctx_.halt_logged) {
    ctx_.events.record({"HALT", "", 0, -1, -1, reason});
    ctx_.halt_logged = true;
  }
  return !reason.empty();
}

}  // namespace scr::rt
