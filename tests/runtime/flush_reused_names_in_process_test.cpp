// Checkpoints that reuse their file names (every one writes ckpt/rank_<r>.dat):
// a flush that fails part-way must leave the older flushed checkpoint as it
// was, loadable byte for byte from the prefix; only a flush the whole job
// got through replaces its files. 4 in-process ranks on 4 simulated nodes
// (sim_job.hpp), XOR, cache on.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <string>

#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

namespace fs = std::filesystem;

// The one name every checkpoint of these tests gives rank `rank`'s file.
std::string reused_name(int rank) { return "ckpt/rank_" + std::to_string(rank) + ".dat"; }

// Writes checkpoint `name` with this rank's bytes for it under the reused name.
Status write_reused(Runtime& rt, int rank, const std::string& name) {
  SCR_TRY(rt.start_output(name, kFlagCheckpoint));
  auto path = rt.route_file(reused_name(rank));
  Status written = path.ok() ? io::write_file_atomic(io::Env::posix(), *path, file_bytes(name, rank))
                             : path.status();
  Status completed = rt.complete_output(written.ok());
  return written.ok() ? completed : written;
}

// One job that restarts from the prefix (every node lost before) and must
// get checkpoint `name` with the bytes each rank wrote for it.
void restart_reused(SimJob& job, const std::string& name) {
  job.lose_every_node();
  job.run([&](mpi::Comm& world, Runtime& rt) {
    bool have = false;
    std::string got;
    ASSERT_TRUE(rt.have_restart(&have, &got).ok());
    ASSERT_TRUE(have) << "nothing to restart from";
    EXPECT_EQ(got, name);
    ASSERT_TRUE(rt.start_restart().ok());
    auto path = rt.route_file(reused_name(world.rank()));
    ASSERT_TRUE(path.ok()) << path.status().to_string();
    auto bytes = io::read_file(io::Env::posix(), *path, 1 << 20);
    ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
    bool same = *bytes == file_bytes(name, world.rank());
    EXPECT_TRUE(same) << "rank " << world.rank() << " did not get the bytes of " << name;
    EXPECT_TRUE(rt.complete_restart(same).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

// Nothing a flush held back is left in the prefix: no temporary beside the
// reused names, no list in .scr. (A crash may leave the temporary of a
// summary in .scr/scr.dataset.<id>/ of a flush never recorded: not a copy.)
void expect_no_leftovers(const SimJob& job) {
  for (const auto& e : fs::recursive_directory_iterator(job.prefix())) {
    std::string name = e.path().filename();
    bool in_scr = e.path().string().starts_with(job.prefix() + "/.scr/");
    EXPECT_FALSE(io::is_temp_name(name) && !in_scr) << e.path();
    EXPECT_FALSE(name.starts_with(kDeferredListPrefix)) << e.path();
  }
}

// ckpt.1 flushed, then ckpt.2 under the same names whose flush fails on
// rank 2 (ENOSPC on its first write into the prefix's ckpt/, while the
// other ranks copied theirs), sync or async.
void fail_second_flush(bool async) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  if (async) job.set("SCR_FLUSH_ASYNC", "1");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  ASSERT_TRUE(flushed(job, "ckpt.1"));
  job.run([&](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, job.prefix() + "/ckpt/");
    Status st = write_reused(rt, world.rank(), "ckpt.2");
    if (!async) {
      EXPECT_FALSE(mpi::all_true(world, st.ok())) << "the flush of ckpt.2 did not fail";
    }
    (void)rt.finalize();
  });
  EXPECT_FALSE(flushed(job, "ckpt.2"));
  expect_no_leftovers(job);
  restart_reused(job, "ckpt.1");
}

TEST(FlushReusedNames, AFailedFlushLeavesTheOlderCheckpointLoadable) { fail_second_flush(false); }

TEST(FlushReusedNames, AFailedAsyncFlushLeavesTheOlderCheckpointLoadable) { fail_second_flush(true); }

// The flush that gets through replaces the older files: the restart loads
// the newer checkpoint, and nothing held back is left.
TEST(FlushReusedNames, AFlushThatGetsThroughPutsTheNewBytesInPlace) {
  for (bool async : {false, true}) {
    SCOPED_TRACE(async ? "async" : "sync");
    SimJob job;
    job.set("SCR_FLUSH", "1");
    if (async) job.set("SCR_FLUSH_ASYNC", "1");
    job.run([&](mpi::Comm& world, Runtime& rt) {
      ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.1").ok());
      ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.2").ok());
      EXPECT_TRUE(rt.finalize().ok());
    });
    ASSERT_TRUE(flushed(job, "ckpt.2"));
    expect_no_leftovers(job);
    restart_reused(job, "ckpt.2");
  }
}

// Background flushes of checkpoints that reuse the names, two in flight at
// once (SCR_FLUSH_ASYNC_MAX's default, a cache of 3 that evicts none; the
// copies throttled so that ckpt.2's is still held back when ckpt.3's begins): each flush's held-back copy of
// rank_<r>.dat must be its own, not one temporary both write into. The last
// one flushed is current and loads with its own bytes.
TEST(FlushReusedNames, AsyncFlushesInFlightTogetherHoldTheirOwnCopies) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.set("SCR_FLUSH_ASYNC_BW", "4000");
  job.set("SCR_CACHE_SIZE", "3");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    for (const char* name : {"ckpt.1", "ckpt.2", "ckpt.3"}) ASSERT_TRUE(write_reused(rt, world.rank(), name).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  for (const char* name : {"ckpt.1", "ckpt.2", "ckpt.3"}) EXPECT_TRUE(flushed(job, name)) << name;
  expect_no_leftovers(job);
  restart_reused(job, "ckpt.3");
}

// Every step of the second checkpoint and its flush: each rank's file system
// stops at its N-th change ("crash:N", every later change lost), for N = 1,
// 2, ... until the checkpoint gets through. After each, the checkpoint the
// index names current must load from the prefix with its own bytes: a crash
// after the held-back copies began to replace ckpt.1's files must not leave
// ckpt.1 current (the next SCR_Init finishes what the index recorded), and
// nothing held back may be left once that job ran.
TEST(FlushReusedNames, AFlushCrashedAtAnyStepLeavesTheCurrentCheckpointWhole) {
  int crash_points = 0;
  for (int n = 1;; ++n) {
    ASSERT_LT(n, 1000) << "the checkpoint never got through";
    SimJob job;
    job.set("SCR_FLUSH", "1");
    job.run([&](mpi::Comm& world, Runtime& rt) {
      ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.1").ok());
      EXPECT_TRUE(rt.finalize().ok());
    });
    std::atomic<int> crashed{0};
    job.run([&](mpi::Comm& world, Runtime& rt) {
      io::FaultEnv& faults = inject_faults(rt);
      ASSERT_TRUE(faults.configure("crash:" + std::to_string(n)).ok());
      (void)write_reused(rt, world.rank(), "ckpt.2");
      if (faults.crashed()) ++crashed;
      // A crashed job calls nothing more.
    });
    if (crashed == 0) break;
    ++crash_points;
    SCOPED_TRACE("crash at step " + std::to_string(n));
    std::string current = load_index(job).current();
    ASSERT_TRUE(current == "ckpt.1" || current == "ckpt.2") << "current is '" << current << "'";
    restart_reused(job, current);
    expect_no_leftovers(job);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(crash_points, 10) << "the sweep did not reach into the flush";
}

// SCR_Delete of the older checkpoint deletes its own files only: the files
// it shares by name with the newer one stay, and the newer one loads.
TEST(FlushReusedNames, DeletingTheOlderCheckpointKeepsTheFilesTheNewerOneNames) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.1").ok());
    ASSERT_TRUE(write_reused(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.remove("ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_FALSE(load_index(job).find_name("ckpt.1").has_value());
  restart_reused(job, "ckpt.2");
}

}  // namespace
}  // namespace scr::rt::testing
