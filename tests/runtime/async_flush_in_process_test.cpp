// The asynchronous flush (SCR_FLUSH_ASYNC=1), in-process: copies made by
// background threads reach the prefix and are marked flushed only when every
// rank's copy is done; a copy that fails leaves the checkpoint unflushed and
// the older one current.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "io/env.hpp"
#include "io/files.hpp"
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

// A newer checkpoint's flight that ends before an older one's is recorded
// after it: with SCR_PREFIX_SIZE=1 the prefix then keeps the newer alone.
TEST(AsyncFlushInProcess, FlightsAreRecordedInTheOrderTheyStarted) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.set("SCR_FLUSH_ASYNC_BW", "100000");
  job.set("SCR_PREFIX_SIZE", "1");
  job.set("SCR_CACHE_SIZE", "2");  // ckpt.2 evicts nothing, nor waits for ckpt.1's flight
  job.run([](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(rt.start_output("ckpt.1", kFlagCheckpoint).ok());
    auto path = rt.route_file(file_name("ckpt.1", world.rank()));
    ASSERT_TRUE(path.ok());
    ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), *path, std::string(100000, 'a')).ok());
    ASSERT_TRUE(rt.complete_output(true).ok());  // about 1 s to copy
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());  // a few ms
    const AsyncFlusher& flusher = *rt.context().flusher;
    for (int i = 0; i < 1000 && !flusher.copied(2); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(flusher.copied(2));
    EXPECT_FALSE(flusher.copied(1)) << "ckpt.1's flight ended first: nothing to order";
    world.barrier();  // every process's copy of ckpt.2 is done
    EXPECT_TRUE(rt.need_checkpoint().ok());  // records what is done, oldest first
    EXPECT_TRUE(rt.finalize().ok());
  });
  PrefixIndex idx = load_index(job);
  EXPECT_TRUE(flushed(job, "ckpt.2"));
  EXPECT_FALSE(idx.find_name("ckpt.1").has_value()) << "ckpt.1, recorded last, outlived the window";
}

// A flush slow enough to be in flight when the next call comes (a few KB
// per rank at 10 KB/s: about half a second).
void slow_background_flush(SimJob& job) {
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.set("SCR_FLUSH_ASYNC_BW", "10000");
}

// ckpt.1 flushed; then, in one job, ckpt.2 written and `call` made while
// its flush is still in flight in the background, and the job finalized.
void while_ckpt2_is_flushed(SimJob& job, const std::function<Status(Runtime&)>& call) {
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  slow_background_flush(job);
  job.run([&](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    ASSERT_EQ(rt.context().flusher->count(), 1u) << "the flush of ckpt.2 was not in flight";
    Status st = call(rt);
    EXPECT_TRUE(st.ok()) << st.to_string();
    EXPECT_TRUE(rt.finalize().ok());
  });
}

// SCR_Current of an older checkpoint while the newer one's flush is in
// flight: the flush ends first, so the named checkpoint stays CURRENT and
// the next job, every cache lost, restarts from it.
TEST(AsyncFlushInProcess, CurrentNamedDuringANewerFlushStaysCurrent) {
  SimJob job;
  job.set("SCR_CACHE_SIZE", "2");
  while_ckpt2_is_flushed(job, [](Runtime& rt) { return rt.set_current("ckpt.1"); });
  EXPECT_TRUE(flushed(job, "ckpt.2"));
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

// SCR_Current of the checkpoint being flushed names it once its flush ends,
// as after a synchronous flush.
TEST(AsyncFlushInProcess, CurrentOfTheCheckpointInFlightSucceeds) {
  SimJob job;
  while_ckpt2_is_flushed(job, [](Runtime& rt) { return rt.set_current("ckpt.2"); });
  EXPECT_EQ(load_index(job).current(), "ckpt.2");
}

// SCR_Drop of a dataset whose flush is in flight: the flush ends first, and
// the dataset is not listed again after the drop.
TEST(AsyncFlushInProcess, ADatasetDroppedInFlightStaysDropped) {
  SimJob job;
  while_ckpt2_is_flushed(job, [](Runtime& rt) { return rt.drop("ckpt.2"); });
  PrefixIndex idx = load_index(job);
  EXPECT_FALSE(idx.find_name("ckpt.2").has_value()) << "the drop was undone";
  EXPECT_EQ(idx.current(), "ckpt.1");
}

// A background flush that failed is the error of the SCR_Drop that waited
// for it, and the drop is done all the same.
TEST(AsyncFlushInProcess, ADropIsDoneWhenTheFlushItWaitedForFailed) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.set("SCR_CACHE_SIZE", "2");
  job.checkpoint("ckpt.1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, "ckpt.2/rank_");
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_FALSE(rt.drop("ckpt.1").ok()) << "the failed flush was not reported";
    (void)rt.finalize();
  });
  EXPECT_FALSE(load_index(job).find_name("ckpt.1").has_value()) << "the drop was not done";
}

// A checkpoint written straight into the prefix (BYPASS=1 on its
// descriptor) under the names a cached checkpoint's background flush is
// copying to: the flush ends before the application writes, so the prefix
// holds the newer bytes and the next job restarts from them.
std::string reused_bytes(int ckpt, int rank) {
  std::string b;
  while (b.size() < 40000) b += "ckpt." + std::to_string(ckpt) + " rank " + std::to_string(rank) + ";";
  return b;
}

Status write_reused_name(Runtime& rt, int rank, int ckpt) {
  SCR_TRY(rt.start_output("ckpt." + std::to_string(ckpt), kFlagCheckpoint));
  SCR_ASSIGN_OR_RETURN(std::string path, rt.route_file("same/rank_" + std::to_string(rank) + ".dat"));
  {
    // As applications write: the name opened with truncation, then written.
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << reused_bytes(ckpt, rank);
  }
  return rt.complete_output(true);
}

TEST(AsyncFlushInProcess, ABypassCheckpointWaitsForTheFlushOfItsNames) {
  SimJob job;
  std::string conf = job.prefix() + "/../app.conf";
  std::ofstream(conf) << "CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\n";
  job.set("SCR_CONF_FILE", conf);
  slow_background_flush(job);
  job.set("SCR_FLUSH_ASYNC_BW", "100000");  // 40 KB per rank
  job.set("SCR_PIECE_SIZE", "4096");
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_reused_name(rt, world.rank(), 1).ok());  // cached, flushed in the background
    ASSERT_EQ(rt.context().flusher->count(), 1u) << "the flush of ckpt.1 was not in flight";
    EXPECT_TRUE(write_reused_name(rt, world.rank(), 2).ok());  // bypass, the same names
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_EQ(load_index(job).current(), "ckpt.2");
  for (int r = 0; r < SimJob::kRanks; ++r) {
    auto got = io::read_file(io::Env::posix(), job.prefix() + "/same/rank_" + std::to_string(r) + ".dat");
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == reused_bytes(2, r)) << "rank " << r << ": the prefix does not hold ckpt.2's bytes";
  }
  job.lose_every_node();
  job.run([](mpi::Comm& world, Runtime& rt) {
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    ASSERT_TRUE(have) << "nothing to restart from";
    EXPECT_EQ(name, "ckpt.2");
    ASSERT_TRUE(rt.start_restart().ok());
    auto path = rt.route_file("same/rank_" + std::to_string(world.rank()) + ".dat");
    ASSERT_TRUE(path.ok()) << path.status().to_string();
    auto got = io::read_file(io::Env::posix(), *path);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == reused_bytes(2, world.rank()));
    EXPECT_TRUE(rt.complete_restart(true).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

}  // namespace
}  // namespace scr::rt::testing
