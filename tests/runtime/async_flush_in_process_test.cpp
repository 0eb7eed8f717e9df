// The asynchronous flush (SCR_FLUSH_ASYNC=1), in-process: copies made by
// background threads reach the prefix and are marked flushed only when every
// rank's copy is done; a copy that fails leaves the checkpoint unflushed and
// the older one current.
#include <gtest/gtest.h>

#include <cerrno>

#include "io/env.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/transfer/async_flush.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {


TEST(AsyncFlushInProcess, BackgroundCopiesReachThePrefixAndOutliveEveryCache) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    // The second checkpoint starts while the first may still be copying:
    // its Start_output finishes what is done, Finalize waits for the rest.
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
    EXPECT_EQ(rt.context().flusher->count(), 0u) << "Finalize left a flush in flight";
  });
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_TRUE(flushed(job, "ckpt.2"));
  EXPECT_EQ(load_index(job).current(), "ckpt.2");
  job.lose_every_node();
  job.restart_from("ckpt.2");
}

TEST(AsyncFlushInProcess, AFailedCopyLeavesTheCheckpointUnflushedAndTheOlderCurrent) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.checkpoint("ckpt.1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    // Rank 2's background copy of ckpt.2 finds the prefix full.
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, "ckpt.2/rank_");
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok())
        << "the checkpoint itself is safe in cache";
    EXPECT_FALSE(rt.finalize().ok()) << "a flush that failed was not reported";
  });
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_FALSE(flushed(job, "ckpt.2"));
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
  // The cache still holds ckpt.2, which a restart in place uses.
  job.restart_from("ckpt.2");
}

}  // namespace
}  // namespace scr::rt::testing
