// A process that dies in the middle of a flush leaves the prefix with the
// previous checkpoint loadable: the partly flushed one is never fetched. The
// sweep crashes every rank at its N-th file step, for every N up to a
// checkpoint that gets through.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, ACrashInTheMiddleOfAFlushKeepsThePreviousCheckpoint) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  std::atomic<bool> crashed{false};
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    // Rank 2 dies when it starts copying its file of ckpt.2 to the prefix;
    // the other ranks copy theirs.
    io::FaultEnv* faults = nullptr;
    if (world.rank() == 2) {
      faults = &inject_faults(rt);
      ASSERT_TRUE(faults->configure("crash:" + rt.context().settings.prefix + "/ckpt.2/:1").ok());
    }
    (void)write_checkpoint(rt, world.rank(), "ckpt.2");
    if (faults) crashed = faults->crashed();
    // A dead job calls nothing more.
  });
  ASSERT_TRUE(crashed) << "the injected crash never happened";
  // Here the other ranks live on and agree that the flush failed: the
  // files they had copied for it are removed again (a prefix filled with a
  // failed flush's copies would refuse the next one).
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.2/rank_0.dat"))
      << "the failed flush of ckpt.2 left rank 0's copy in the prefix";
  // The index names ckpt.2 (its flush began) but not as loadable, and
  // still points at ckpt.1.
  auto index = PrefixIndex::load(io::Env::posix(), job.prefix());
  ASSERT_TRUE(index.ok()) << index.status().to_string();
  auto second = index->find_name("ckpt.2");
  ASSERT_TRUE(second.has_value()) << "the flush of ckpt.2 never reached the index";
  EXPECT_FALSE(index->loadable(*second));
  EXPECT_EQ(index->current(), "ckpt.1");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

// Every step of a checkpoint and its flush: each rank's file system stops at
// its N-th change ("crash:N", every later change lost), for N = 1, 2, ...
// until the checkpoint gets through without reaching step N. After each,
// the index must load, name a loadable checkpoint as current (ckpt.1, or
// ckpt.2 when its flush was recorded), and a job that lost every node must
// restart from that one with every byte intact.
TEST(RuntimeInProcess, AFlushCrashedAtAnyStepLeavesTheCurrentCheckpointLoadable) {
  int crash_points = 0;
  for (int n = 1;; ++n) {
    ASSERT_LT(n, 1000) << "the checkpoint never got through";
    SimJob job;
    job.set("SCR_FLUSH", "1");
    job.checkpoint("ckpt.1");
    if (crash_while_writing(job, n, "ckpt.2") == 0) break;
    ++crash_points;
    SCOPED_TRACE("crash at step " + std::to_string(n));
    auto index = PrefixIndex::load(io::Env::posix(), job.prefix());
    ASSERT_TRUE(index.ok()) << index.status().to_string();
    std::string current = index->current();
    ASSERT_TRUE(current == "ckpt.1" || current == "ckpt.2") << "current is '" << current << "'";
    auto first = index->find_name("ckpt.1");
    ASSERT_TRUE(first && index->loadable(*first)) << "ckpt.1 is no longer loadable";
    if (auto second = index->find_name("ckpt.2"); second && current == "ckpt.1") {
      EXPECT_FALSE(index->loadable(*second)) << "a torn ckpt.2 is loadable";
    }
    job.lose_every_node();
    job.restart_from(current);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(crash_points, 10) << "the sweep did not reach into the flush";
}

}  // namespace
}  // namespace scr::rt::testing
