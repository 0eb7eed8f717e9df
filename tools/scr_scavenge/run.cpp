#include "tools/scr_scavenge/run.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "io/files.hpp"
#include "runtime/prefix/deferred.hpp"
#include "runtime/prefix/flush_protocol.hpp"

#include "tools/common/cli.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/summary.hpp"
#include "tools/scr_scavenge/node_caches.hpp"
#include "tools/scr_scavenge/plan.hpp"
#include "tools/scr_scavenge/remote_caches.hpp"

namespace scr::tools::scavenge {
namespace {

// The index as it is; a prefix nothing was ever flushed to has an empty one.
Result<rt::PrefixIndex> load_index(io::Env& env, const std::string& prefix) {
  if (!has_index(env, prefix)) return rt::PrefixIndex::load(env, prefix);
  return open_index(env, prefix);
}

Outcome save_one(io::Env& env, const Options& o, Caches& caches, const CachedDataset& ds) {
  Outcome out{};
  out.id = ds.id;
  out.name = ds.info.name;
  out.flags = ds.info.flags;
  auto start = std::chrono::steady_clock::now();
  Status saved = save_dataset(env, o, caches, ds, out.saved);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.state = saved.ok() ? Outcome::State::saved : Outcome::State::failed;
  out.error = saved;
  return out;
}

// Outputs all; checkpoints newest first until one is saved (all with --all).
std::vector<Outcome> save_planned(io::Env& env, const Options& o, Caches& caches,
                                  const Plan& plan, const std::vector<CachedDataset>& cached) {
  std::map<int, const CachedDataset*> by_id;
  for (const auto& ds : cached) by_id[ds.id] = &ds;
  std::map<int, Outcome> done;
  for (int id : plan.outputs) done[id] = save_one(env, o, caches, *by_id[id]);
  bool have_newest = false;
  for (int id : plan.checkpoints) {
    if (have_newest && !o.all) {
      done[id] = {id,
                  by_id[id]->info.name,
                  by_id[id]->info.flags,
                  Outcome::State::skipped,
                  {},
                  "not needed: a newer checkpoint was saved",
                  {},
                  0};
      continue;
    }
    if (!done.count(id)) done[id] = save_one(env, o, caches, *by_id[id]);
    have_newest = done[id].state == Outcome::State::saved;
  }
  std::vector<Outcome> out;
  for (auto& [id, outcome] : done) out.push_back(std::move(outcome));
  return out;
}

// The lock a job's rank 0 holds on the prefix, for the whole scavenge: no
// job may flush into the index while it is read, planned against and
// changed. Without cached datasets nothing is written, not even .scr.
Result<std::optional<io::FileLock>> lock_index(io::Env& env, const Options& o, const CacheScan& scan) {
  if (scan.datasets.empty()) return std::optional<io::FileLock>();
  SCR_TRY(io::make_dirs(env, rt::prefix_scr_dir(o.prefix), 0700));
  auto lock = rt::lock_prefix_index(env, o.prefix);
  if (!lock && lock.status().code() == Errc::bad_state)
    return Error(Errc::bad_state, "a job is using " + o.prefix + ": " + lock.status().message() +
                                      "; scavenge after it ends");
  return lock;
}

// The index the saves go into. A damaged one must not keep the cache's
// only copies from the prefix: it is set aside, and as the new index lists
// none of them, a dataset the cache marks flushed is saved again, so that
// a restart finds it.
Result<rt::PrefixIndex> index_to_save_into(io::Env& env, const std::string& prefix, CacheScan& scan,
                                           Report& report) {
  auto idx = load_index(env, prefix);
  if (idx || idx.status().code() != Errc::corrupt || scan.datasets.empty()) return idx;
  SCR_ASSIGN_OR_RETURN(std::string aside, set_aside_damaged_index(env, prefix));
  if (!aside.empty()) {
    report.notes.push_back(aside);
    for (CachedDataset& ds : scan.datasets) ds.flushed = false;
  }
  return load_index(env, prefix);
}

}  // namespace

Result<Report> run_scavenge(io::Env& env, const Options& o) {
  // A cluster's hosts are read by agents on them; simulated nodes and this
  // node's own directories here.
  std::unique_ptr<Caches> caches =
      o.hosts.empty() ? local_caches(env, o) : remote_caches(env, o, own_program());
  CacheScan scan = caches->scan();
  SCR_ASSIGN_OR_RETURN(std::optional<io::FileLock> lock, lock_index(env, o, scan));
  // No job uses the prefix now: a flush list there is a killed job's, and
  // is settled before a copy of the same dataset and rank notes its own
  // temporaries in it (runtime/prefix/deferred.hpp).
  if (!scan.datasets.empty()) rt::sweep_deferred_lists(env, o.prefix);
  Report report;
  report.notes = scan.notes;
  SCR_ASSIGN_OR_RETURN(rt::PrefixIndex before, index_to_save_into(env, o.prefix, scan, report));
  // An older cached checkpoint is skipped for a newer one in the prefix
  // only while that one's files are there.
  Plan plan = plan_scavenge(scan.datasets, before, o.all,
                            [&](int id) { return rt::summary_files_in_place(env, o.prefix, id); });
  report.no_host_answered = scan.no_host_answered;
  report.datasets = save_planned(env, o, *caches, plan, scan.datasets);
  for (const Skipped& s : plan.skipped)
    report.datasets.push_back({s.id, s.name, 0, Outcome::State::skipped, {}, s.why, {}, 0});
  std::sort(report.datasets.begin(), report.datasets.end(),
            [](const Outcome& a, const Outcome& b) { return a.id < b.id; });
  SCR_ASSIGN_OR_RETURN(rt::PrefixIndex after, load_index(env, o.prefix));
  report.restart = restart_choice(after);
  return report;
}

int exit_code_of(const Report& report) {
  bool saved = false, damaged = false, failed = false;
  for (const Outcome& d : report.datasets) {
    saved |= d.state == Outcome::State::saved;
    if (d.state != Outcome::State::failed) continue;
    int code = exit_code_for(d.error);
    bool data = d.error.code() == Errc::unrecoverable || code == exit_code::bad_data ||
                code == exit_code::not_found;
    (data ? damaged : failed) = true;
  }
  if (failed) return exit_code::failed;
  if (damaged) return exit_code::bad_data;
  if (!saved && report.no_host_answered) return exit_code::failed;
  return saved ? exit_code::ok : exit_code::not_found;
}

}  // namespace scr::tools::scavenge
