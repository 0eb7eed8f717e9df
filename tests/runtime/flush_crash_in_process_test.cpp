// A process that dies in the middle of a flush leaves the prefix with the
// previous checkpoint loadable: the partly flushed one is never fetched.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "runtime/prefix_index.hpp"
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
  EXPECT_TRUE(io::Env::posix().exists(job.prefix() + "/ckpt.2/rank_0.dat"))
      << "the flush of ckpt.2 had not begun when rank 2 crashed";
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

}  // namespace
}  // namespace scr::rt::testing
