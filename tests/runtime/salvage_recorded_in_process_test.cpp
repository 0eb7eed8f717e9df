// The salvage of a checkpoint the prefix index records: 4 in-process ranks
// on 4 simulated nodes write ckpt/r<r>/a.dat and b.dat (XOR, one set of 4)
// and flush them, but the job dies once the prefix index records the flush,
// before any filemap says so: the cache still calls the checkpoint never
// flushed. The flush left it whole in the prefix, so a job of another size
// does not salvage it at SCR_Init: no salvage event, the prefix's files
// byte for byte what that flush wrote, nothing added, and the job restarts
// from them, whatever the cache or the prefix would have done to a salvage.
// A salvage of a checkpoint the index did not record keeps its files when
// its own record landed before its last step failed, and forgets the entry
// when it fails without any record.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/runtime.hpp"
#include "sim_job.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

constexpr size_t kStack = 1 << 20;
constexpr int kWriters = 4;
constexpr int kId = 1;  // the checkpoint: the first dataset of its job
const char* const kFiles[] = {"a.dat", "b.dat"};

// XOR sets of 4; the event log's text file in the prefix tells what each
// salvage did.
struct Scene : rt::testing::SimDir {
  Scene() : SimDir("scr_salvage_rec") {
    settings["SCR_SET_SIZE"] = "4";
    settings["SCR_LOG_ENABLE"] = "1";
    settings["SCR_LOG_JSON_ENABLE"] = "0";
    settings["SCR_LOG_SYSLOG_ENABLE"] = "0";
  }
};

std::string rel_name(int writer, const std::string& file) {
  return "ckpt/r" + std::to_string(writer) + "/" + file;
}

// Distinct per writer and file, so that a file in another's place shows.
std::string bytes_of(int writer, const std::string& file) {
  return rt::testing::file_bytes(rel_name(writer, file), writer);
}

// Whether the event log records `event` (SALVAGE, SALVAGE_FAILED) of the
// checkpoint.
bool logged(const Scene& scene, const std::string& event) {
  auto log = io::read_file(io::Env::posix(), scene.prefix + "/.scr/log");
  return log.ok() && log->find("event=" + event + " dataset=ckpt id=1 ") != std::string::npos;
}

void expect_not_salvaged(const Scene& scene) {
  EXPECT_FALSE(logged(scene, "SALVAGE")) << "the checkpoint was salvaged again";
  EXPECT_FALSE(logged(scene, "SALVAGE_FAILED")) << "a salvage of the checkpoint was tried";
}

bool index_records(const std::string& prefix, int id) {
  auto idx = rt::PrefixIndex::load(io::Env::posix(), prefix);
  return idx.ok() && idx->flushed(id);
}

// A process killed between its job's flush record and the filemap's mark:
// from its first filemap write once the prefix index records dataset kId
// as flushed, every change it makes is lost (FaultEnv's crash).
class KilledOnceRecorded : public io::EnvWrapper {
 public:
  KilledOnceRecorded(io::FaultEnv& faults, std::string prefix)
      // As an Env: EnvWrapper's copy would wrap what `faults` wraps.
      : EnvWrapper(static_cast<io::Env&>(faults)), faults_(faults), prefix_(std::move(prefix)) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    if (mode != io::OpenMode::read && !faults_.crashed() && path.find("/filemap_") != std::string::npos &&
        index_records(prefix_, kId))
      faults_.crash_at_step(1);
    return EnvWrapper::open(path, mode, perms);
  }
  bool killed() const { return faults_.crashed(); }

 private:
  io::FaultEnv& faults_;
  std::string prefix_;
};

// One rank's part of the checkpoint: its files routed, written, completed.
Status write_files(rt::Runtime& rt, int rank) {
  SCR_TRY(rt.start_output("ckpt", rt::kFlagCheckpoint));
  for (const char* f : kFiles) {
    SCR_ASSIGN_OR_RETURN(std::string path, rt.route_file(rel_name(rank, f)));
    SCR_TRY(io::write_file_atomic(io::Env::posix(), path, bytes_of(rank, f)));
  }
  return rt.complete_output(true);
}

// The checkpoint in cache only: no flush.
void write_cached(Scene& scene) {
  scene.settings["SCR_FLUSH"] = "0";
  mpi::InProcess(kWriters, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE(write_files(**rt, world.rank()).ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  scene.settings.erase("SCR_FLUSH");
}

// The checkpoint flushed, the job killed on every rank once the index
// records it (a killed job calls nothing more).
void write_flushed_then_killed(Scene& scene) {
  scene.settings["SCR_FLUSH"] = "1";
  mpi::InProcess(kWriters, kStack).run([&](mpi::Comm& world) {
    io::FaultEnv faults(io::Env::posix());
    KilledOnceRecorded env(faults, scene.prefix);
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world, &env);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_FALSE(write_files(**rt, world.rank()).ok());
    EXPECT_TRUE(env.killed()) << "rank " << world.rank() << " was never killed";
  });
  scene.settings.erase("SCR_FLUSH");
}

// Old rank `writer`'s filemap on its node (rank r ran on node n<r>).
Result<rt::Filemap> filemap_of(const Scene& scene, int writer) {
  std::string w = std::to_string(writer);
  return rt::Filemap::load(io::Env::posix(), scene.cntl + "/n" + w + "/tester/scr.sim/filemap_" + w + ".scr", writer);
}

// The state a salvage must not spoil: the index records the checkpoint as
// flushed, every filemap calls it complete and not flushed.
void expect_recorded_but_not_marked(const Scene& scene) {
  ASSERT_TRUE(index_records(scene.prefix, kId)) << "the flush never reached the index";
  for (int w = 0; w < kWriters; ++w) {
    auto fm = filemap_of(scene, w);
    ASSERT_TRUE(fm.ok()) << fm.status().to_string();
    ASSERT_TRUE(fm->has(kId)) << "filemap of rank " << w;
    EXPECT_EQ(fm->state(kId), rt::CacheState::complete) << "filemap of rank " << w;
  }
}

// Every file below `prefix` with its bytes, but those directly in .scr:
// the index (edited by every salvage), the prefix lock and the job's
// bookkeeping. The checkpoint's summary and redundancy files, in
// .scr/scr.dataset.<id>/, are included.
std::map<std::string, std::string> prefix_files(const std::string& prefix) {
  std::map<std::string, std::string> out;
  const fs::path scr = fs::path(prefix) / ".scr";
  for (const auto& e : fs::recursive_directory_iterator(prefix)) {
    if (!e.is_regular_file() || e.path().parent_path() == scr) continue;
    auto bytes = io::read_file(io::Env::posix(), e.path().string(), 1 << 24);
    out[e.path().lexically_relative(prefix).string()] = bytes.ok() ? *bytes : "unreadable";
  }
  return out;
}

// Every file of `before` is in `after` with the same bytes, and no other.
void expect_same_files(const std::map<std::string, std::string>& before,
                       const std::map<std::string, std::string>& after) {
  for (const auto& [name, bytes] : before) {
    auto it = after.find(name);
    if (it == after.end())
      ADD_FAILURE() << name << " is gone";
    else
      EXPECT_TRUE(it->second == bytes) << name << " is not what the earlier flush wrote";
  }
  for (const auto& [name, bytes] : after) EXPECT_TRUE(before.count(name)) << name << " was left behind";
}

// The checkpoint, loadable and current in the index, and its files as the
// earlier flush left them (`before`).
void expect_earlier_flush_intact(const Scene& scene, const std::map<std::string, std::string>& before) {
  auto idx = rt::PrefixIndex::load(io::Env::posix(), scene.prefix);
  ASSERT_TRUE(idx.ok()) << idx.status().to_string();
  EXPECT_TRUE(idx->loadable(kId)) << "the index no longer offers the earlier flush";
  EXPECT_EQ(idx->current(), "ckpt");
  ASSERT_TRUE(before.count(".scr/scr.dataset.1/summary.scrpp")) << "the earlier flush left no summary";
  expect_same_files(before, prefix_files(scene.prefix));
}

// Old ranks w with w % ranks == rank, read back and checked byte for byte.
bool read_share(rt::Runtime& rt, int rank, int ranks) {
  bool same = true;
  for (int w = rank; w < kWriters; w += ranks)
    for (const char* f : kFiles) {
      auto path = rt.route_file(rel_name(w, f));
      EXPECT_TRUE(path.ok()) << path.status().to_string();
      auto bytes = path.ok() ? io::read_file(io::Env::posix(), *path, 1 << 20) : Result<std::string>(path.status());
      bool ok = bytes.ok() && *bytes == bytes_of(w, f);
      EXPECT_TRUE(ok) << rel_name(w, f) << " read back other bytes";
      same = same && ok;
    }
  return same;
}

// A job of `ranks` on `nodes` restarts from the checkpoint: offered, every
// old rank's file read back as written. Every rank's files through `env`,
// when given.
void restart_from_ckpt(Scene& scene, int ranks, const std::string& nodes, io::Env* env = nullptr) {
  scene.settings["SCR_SIM_NODES"] = nodes;
  auto read = [ranks](rt::Runtime& rt, int rank) { return read_share(rt, rank, ranks); };
  auto finalized = rt::testing::restart_offered(scene.settings, scene.prefix, ranks, "ckpt", read,
                                                [env](int) { return env; });
  for (const Status& st : finalized) EXPECT_TRUE(st.ok()) << st.to_string();
}

// A job of `ranks` on `nodes` that only starts and finalizes: SCR_Init
// must succeed.
void expect_init(Scene& scene, int ranks, const std::string& nodes) {
  scene.settings["SCR_SIM_NODES"] = nodes;
  mpi::InProcess(ranks, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

// The killed flush's state, checked, and the prefix as it left it.
std::map<std::string, std::string> recorded_but_not_marked(Scene& scene) {
  write_flushed_then_killed(scene);
  expect_recorded_but_not_marked(scene);
  return prefix_files(scene.prefix);
}

// Node n3 lost: the cache alone could be made whole (a job of 3 would copy
// old ranks 0..2 and rebuild old rank 3), but the prefix has the checkpoint
// already. Nothing is salvaged: the earlier flush stays as it was, loadable
// and current, and the job restarts from it.
TEST(SalvageInProcess, ACheckpointTheIndexRecordsIsNotSalvagedAgain) {
  Scene scene;
  auto before = recorded_but_not_marked(scene);
  if (HasFatalFailure()) return;
  scene.lose("n3");
  restart_from_ckpt(scene, 3, "n0,n1,n2");
  expect_not_salvaged(scene);
  expect_earlier_flush_intact(scene, before);
}

// The index names another dataset under the checkpoint's id (a prefix of
// another history): that is no record of this checkpoint, whose only copy
// is the cache, so the salvage runs and the job restarts from it.
TEST(SalvageInProcess, AnotherDatasetUnderTheSameIdDoesNotStopTheSalvage) {
  Scene scene;
  recorded_but_not_marked(scene);
  if (HasFatalFailure()) return;
  auto idx = rt::PrefixIndex::load(io::Env::posix(), scene.prefix);
  ASSERT_TRUE(idx.ok()) << idx.status().to_string();
  idx->find(kId)->set("NAME", "other");
  ASSERT_TRUE(idx->save(io::Env::posix()).ok());
  scene.lose("n3");
  restart_from_ckpt(scene, 3, "n0,n1,n2");
  EXPECT_TRUE(logged(scene, "SALVAGE")) << "the cached checkpoint was taken for the other dataset";
}

// A prefix full but for the job's own files directly in .scr (the index, the
// event log, the restart file table a restart at another size writes):
// every file a salvage would write, below ckpt/ and in .scr/scr.dataset.1/,
// fails to open for writing with ENOSPC.
class FullPrefix : public io::EnvWrapper {
 public:
  explicit FullPrefix(std::string prefix) : EnvWrapper(io::Env::posix()), prefix_(std::move(prefix)) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    bool bookkeeping = fs::path(path).parent_path() == fs::path(prefix_) / ".scr";
    if (mode != io::OpenMode::read && path.starts_with(prefix_ + "/") && !bookkeeping)
      return Error(Errc::no_space, "open " + path + ": No space left on device (injected fault)");
    return EnvWrapper::open(path, mode, perms);
  }

 private:
  std::string prefix_;
};

// Node n3 lost and the prefix full: a salvage could write nothing, but none
// is needed. SCR_Init succeeds and the job restarts from the earlier flush.
TEST(SalvageInProcess, AFullPrefixDoesNotKeepARecordedCheckpointFromTheRestart) {
  Scene scene;
  auto before = recorded_but_not_marked(scene);
  if (HasFatalFailure()) return;
  scene.lose("n3");
  FullPrefix full(scene.prefix);
  restart_from_ckpt(scene, 3, "n0,n1,n2", &full);
  expect_not_salvaged(scene);
  expect_earlier_flush_intact(scene, before);
}

// Flips the last byte of the one redundancy file below `dir`: its XOR data,
// not its header, so that only what is rebuilt from it is wrong.
void damage_redundancy(const std::string& dir) {
  int damaged = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.path().string().ends_with(".redset")) continue;
    auto bytes = io::read_file(io::Env::posix(), e.path().string());
    ASSERT_TRUE(bytes.ok() && !bytes->empty()) << e.path();
    bytes->back() = static_cast<char>(bytes->back() ^ 0x5a);
    ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), e.path().string(), *bytes).ok());
    ++damaged;
  }
  ASSERT_EQ(damaged, 1) << "redundancy files below " << dir;
}

// Old rank 1's cached redundancy file damaged since the earlier flush, node
// n3 lost: a salvage would copy that file over the flush's and rebuild old
// rank 3 from it. None runs: the prefix keeps the flush's files, and the job
// restarts from them.
TEST(SalvageInProcess, ADamagedCacheNeverReachesACheckpointTheIndexRecords) {
  Scene scene;
  auto before = recorded_but_not_marked(scene);
  if (HasFatalFailure()) return;
  scene.lose("n3");
  ASSERT_NO_FATAL_FAILURE(damage_redundancy(scene.cache + "/n1"));
  restart_from_ckpt(scene, 3, "n0,n1,n2");
  expect_not_salvaged(scene);
  expect_earlier_flush_intact(scene, before);
}

// Every directory sync fails once the index that records the salvage is in
// place (after its summary): a record that landed, then failed at its last
// step.
class SyncFailsOnceRecorded : public io::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  Status rename(const std::string& from, const std::string& to) override {
    SCR_TRY(EnvWrapper::rename(from, to));
    if (to.ends_with("/summary.scrpp")) summary_placed_ = true;
    if (to.ends_with("/index.scr") && summary_placed_) landed_ = true;
    return Status::Ok();
  }
  Status sync_dir(const std::string& path) override {
    if (landed_) return Error(Errc::io_error, "sync of " + path + " failed (injected fault)");
    return EnvWrapper::sync_dir(path);
  }

 private:
  bool summary_placed_ = false, landed_ = false;
};

// No earlier record: node n3 lost, a job of 3 copies old ranks 0..2,
// rebuilds old rank 3 and records the checkpoint, whose index lands before
// the sync of its directory fails. The salvage fails, yet the index offers
// the checkpoint: its files must stay, and a job that lost every node
// restarts from them.
TEST(SalvageInProcess, ASalvageWhoseRecordLandedKeepsTheFilesItNames) {
  Scene scene;
  write_cached(scene);
  scene.lose("n3");
  scene.settings["SCR_SIM_NODES"] = "n0,n1,n2";
  mpi::InProcess(3, kStack).run([&](mpi::Comm& world) {
    SyncFailsOnceRecorded env(io::Env::posix());
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world, &env);
    EXPECT_EQ(rt.status().code(), Errc::io_error) << rt.status().to_string();
  });
  EXPECT_TRUE(logged(scene, "SALVAGE_FAILED"));
  ASSERT_TRUE(index_records(scene.prefix, kId)) << "the record never landed";
  for (int w = 0; w < kWriters; ++w)
    for (const char* f : kFiles)
      EXPECT_TRUE(fs::exists(scene.prefix + "/" + rel_name(w, f))) << rel_name(w, f) << " is gone";
  for (const char* n : {"n0", "n1", "n2"}) scene.lose(n);
  restart_from_ckpt(scene, 2, "n0,n1");
}

// The contrast: no record, nodes n2 and n3 lost, beyond XOR. The salvage
// fails and nothing of the checkpoint is loadable, so its entry and its
// .scr/scr.dataset.1/ go.
TEST(SalvageInProcess, AFailedSalvageWithoutAnEarlierRecordForgetsTheEntry) {
  Scene scene;
  write_cached(scene);
  scene.lose("n2");
  scene.lose("n3");
  expect_init(scene, 2, "n0,n1");
  EXPECT_TRUE(logged(scene, "SALVAGE_FAILED"));
  auto idx = rt::PrefixIndex::load(io::Env::posix(), scene.prefix);
  ASSERT_TRUE(idx.ok()) << idx.status().to_string();
  EXPECT_FALSE(idx->has(kId)) << "the failed salvage left its entry";
  EXPECT_FALSE(fs::exists(rt::prefix_dataset_dir(scene.prefix, kId)));
  EXPECT_FALSE(fs::exists(scene.prefix + "/ckpt"));
}

}  // namespace
