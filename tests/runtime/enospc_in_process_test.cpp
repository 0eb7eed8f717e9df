// A full cache while writing a checkpoint's redundancy fails that checkpoint
// on every rank, and the older checkpoint stays whole: still offered, still
// rebuilt when a node is lost.
#include <gtest/gtest.h>

#include <cerrno>
#include <memory>

#include "io/fault_env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, EnospcInTheRedundancyStepFailsTheCheckpointEverywhere) {
  SimJob job;
  job.set("SCR_CACHE_SIZE", "2");
  job.run([](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    // Rank 1's node is full from its first redundancy file of ckpt.2 on.
    io::FaultEnv* faults = nullptr;
    if (world.rank() == 1) {
      faults = &inject_faults(rt);
      faults->fail_write(1, ENOSPC, ".redset");
    }
    Status st = write_checkpoint(rt, world.rank(), "ckpt.2");
    EXPECT_FALSE(st.ok()) << "rank " << world.rank() << " completed ckpt.2";
    if (faults) {
      EXPECT_GT(faults->writes(), 0);
    }
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.lose_node(3);
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
