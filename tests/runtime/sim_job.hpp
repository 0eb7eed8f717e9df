// In-process jobs for runtime tests: 4 ranks as threads (mpi/in_process.hpp)
// on 4 simulated nodes (SCR_SIM_NODES), each rank with its own Config, Comm
// and Runtime, all in a private temporary directory holding the prefix, the
// node caches and the control directories. A test runs "jobs" one after the
// other over the same directories, as a real job is restarted.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/fault_env.hpp"
#include "mpi/comm.hpp"
#include "runtime/config/config.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/runtime.hpp"

namespace scr::rt::testing {

class SimJob {
 public:
  static constexpr int kRanks = 4;

  SimJob();
  ~SimJob();
  SimJob(const SimJob&) = delete;
  SimJob& operator=(const SimJob&) = delete;

  // SCR_* settings of every job of the test (the environment of rank 0,
  // whose configuration every rank gets).
  std::map<std::string, std::string> settings;
  void set(const std::string& key, std::string value) { settings[key] = std::move(value); }

  // Called on every rank's file system before its runtime starts (arm
  // faults or counters that must cover SCR_Init); reset it to stop.
  std::function<void(io::FaultEnv&)> before_init;

  // Starts one job: every rank initializes its runtime and runs `body`.
  // Failures of SCR_Init, of `body` and of gtest assertions fail the test.
  void run(const std::function<void(mpi::Comm& world, Runtime& rt)>& body);

  // One job that only starts and finalizes: what SCR_Init returned on each
  // rank (a failed Init leaves nothing to finalize).
  std::vector<Status> init_only();

  // One job that writes checkpoint `name` on every rank and finalizes.
  void checkpoint(const std::string& name);
  // One job that must restart from checkpoint `name` with every rank's bytes
  // intact, then finalizes.
  void restart_from(const std::string& name);

  const std::string& prefix() const { return prefix_; }
  // Losing simulated node `n` ("n0".."n3") deletes its cache and control
  // directories, all that a node holds (docs/design.md#simulated-nodes).
  void lose_node(int n) const;
  void lose_every_node() const;

 private:
  Config config() const;
  // Starts every rank's runtime and hands each what SCR_Init returned.
  void start(const std::function<void(mpi::Comm& world, Result<std::unique_ptr<Runtime>>& rt)>& each);
  std::string root_, prefix_, cache_, cntl_;
};

// The settings of a simulated job of four nodes (n0..n3, XOR, cache only,
// no flush) whose prefix, caches and control directories lie below `root`
// (root/prefix, root/cache, root/cntl).
std::map<std::string, std::string> sim_settings(const std::string& root);

// A private directory in /dev/shm (its name begins with `name`) for jobs of
// in-process ranks that a test starts itself: the prefix (made), the caches
// and control directories below it, and the settings of such jobs
// (sim_settings). Removed with everything in it at the end.
struct SimDir {
  explicit SimDir(const std::string& name);
  ~SimDir();
  SimDir(const SimDir&) = delete;  // one owner removes the directories
  SimDir& operator=(const SimDir&) = delete;
  // Losing simulated node `node` deletes its cache and control directories.
  void lose(const std::string& node) const;
  std::string root, prefix, cache, cntl;
  std::map<std::string, std::string> settings;
};

// The configuration a process loads whose environment holds exactly
// `settings`, working in `cwd`.
Config config_from(const std::map<std::string, std::string>& settings, const std::string& cwd);

// The file rank `rank` writes into checkpoint `dataset` (prefix-relative).
std::string file_name(const std::string& dataset, int rank);

// The bytes rank `rank` writes into checkpoint `name`: distinct per rank and
// checkpoint, a few KB so that XOR works on several pieces.
std::string file_bytes(const std::string& name, int rank);

// Restarts from the checkpoint offered, checks that this rank's file holds
// the bytes written for it and returns that checkpoint's name ("" if none).
std::string restart_and_verify(Runtime& rt, int rank);

// Writes one file per rank as checkpoint `name` (rank_<r>.dat) and completes
// it; returns what SCR_Complete_output returned.
Status write_checkpoint(Runtime& rt, int rank, const std::string& name);

// The fault-injecting file system this rank's runtime works through (given
// to it by SimJob::run, passing everything on until armed); configure the
// faults on the result.
io::FaultEnv& inject_faults(Runtime& rt);

// One job whose every rank's file system stops at its N-th change ("crash:N",
// every later change lost) while it writes checkpoint `name`; a crashed rank
// calls nothing more. Returns how many ranks crashed.
int crash_while_writing(SimJob& job, int n, const std::string& name);

// Checkpoints that reuse file names: 4 in-process ranks, configured by
// `settings` and working in `cwd`, write checkpoint `name` as
// ckpt/r<r>/a.dat and b.dat, 5000 bytes of `fill` each.
void write_same_names(const std::map<std::string, std::string>& settings, const std::string& cwd,
                      const std::string& name, char fill);
// Every ckpt/r<r>/{a,b}.dat of those in `prefix` holds `fill` only, and no
// temporary of a copy is left below `prefix`.
void expect_same_names(const std::string& prefix, char fill);
// What a flush of dataset `id` killed part-way leaves for old rank `rank`'s
// file `rel` whose name an older dataset's file holds: a partial temporary
// beside it (a few bytes of 'x', made by no process alive) and the list
// naming it in <prefix>/.scr (runtime/prefix/deferred.hpp).
void leave_killed_copy(const std::string& prefix, int id, int rank, const std::string& rel);
// A job of `ranks` in-process ranks whose SCR_Init offers checkpoint `name`.
void expect_offered(const std::map<std::string, std::string>& settings, const std::string& cwd, int ranks,
                    const std::string& name);

// Reads, inside a restart, what rank `rank` of the job needs; true when
// every byte matched what was written.
using RestartRead = std::function<bool(Runtime& rt, int rank)>;
// The file system rank `rank` works through (nullptr: the real one).
using EnvFor = std::function<io::Env*(int rank)>;

// A job of `ranks` in-process ranks configured by `settings`, working in
// `cwd`: SCR_Init must offer checkpoint `name`; the restart starts, `read`
// reads on every rank and completes it with its verdict (which must be
// true), then the job finalizes. Returns what SCR_Finalize returned on
// each rank.
std::vector<Status> restart_offered(const std::map<std::string, std::string>& settings, const std::string& cwd,
                                    int ranks, const std::string& name, const RestartRead& read,
                                    const EnvFor& env_for = {});

// A restart's read of checkpoint `name` as a job of `writers` processes
// wrote it (file_name, file_bytes), whatever this job's size: every
// process reads every old rank's file.
RestartRead read_every_old_rank(const std::string& name, int writers);

// A prefix that takes no writes (full, read-only): every write below
// `prefix` fails with `err`; reads go through.
class RefusingPrefix : public io::EnvWrapper {
 public:
  RefusingPrefix(std::string prefix, Errc err) : EnvWrapper(io::Env::posix()), prefix_(std::move(prefix)), err_(err) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    if (mode != io::OpenMode::read && path.starts_with(prefix_ + "/"))
      return Error(err_, "open " + path + ": refused (injected fault)");
    return EnvWrapper::open(path, mode, perms);
  }

 private:
  std::string prefix_;
  Errc err_;
};

// An Env that tells, when directory `made` is made through it, whether
// `done` existed then: that one step of a run came after another (a rebuild
// had put one set in place before the next).
class SeenAtMkdir : public io::EnvWrapper {
 public:
  SeenAtMkdir(io::Env& target, std::string made, std::string done)
      : EnvWrapper(target), made_(std::move(made)), done_(std::move(done)) {}
  Status mkdir(const std::string& path, uint32_t perms) override {
    if (path == made_) seen_ = target().exists(done_);
    return EnvWrapper::mkdir(path, perms);
  }
  bool seen() const { return seen_; }

 private:
  std::string made_, done_;
  bool seen_ = false;
};

// The job's prefix index as the last job left it.
PrefixIndex load_index(const SimJob& job);
// Checkpoint `name` is in the prefix, complete and loadable.
bool flushed(const SimJob& job, const std::string& name);

}  // namespace scr::rt::testing
