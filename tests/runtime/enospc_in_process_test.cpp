// A full cache while writing a checkpoint's redundancy fails that checkpoint
// on every rank, and the older checkpoint stays whole: still offered, still
// rebuilt when a node is lost. A full prefix at a synchronous flush fails the
// SCR_Complete_output that flushed, not the checkpoint: it stays in cache.
// A failed flush leaves no directory it made in the prefix (and keeps one
// that was there before, even empty), and one whose
// record fails no summary file nor index entry either. A prefix too
// full for the restart listing's table does not stop a restart
// from cache: only the listing calls fail, saying why.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <memory>
#include <set>

#include "io/fault_env.hpp"
#include "io/files.hpp"
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

TEST(RuntimeInProcess, AFailedSynchronousFlushKeepsTheCheckpointInCacheAndFinalizeRetries) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    // Rank 2's copy of ckpt.2 to the prefix finds it full, once.
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, "ckpt.2/rank_");
    EXPECT_FALSE(write_checkpoint(rt, world.rank(), "ckpt.2").ok()) << "the failed flush was not reported";
  });
  // The job died after the failed flush: ckpt.2 is in cache only, ckpt.1 current.
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_FALSE(flushed(job, "ckpt.2"));
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
  // The next run in the allocation restarts from the cached ckpt.2, and its
  // SCR_Finalize flushes it (the prefix has room again).
  job.restart_from("ckpt.2");
  EXPECT_TRUE(flushed(job, "ckpt.2"));
}

// Each rank writes into a directory of its own (ckpt.1/r<rank>/). Rank 2's
// copy finds the prefix full at its first write, so it places no file; the
// failed flush still takes back the directories it made, as the other ranks
// take back theirs: nothing of ckpt.1 is left in the prefix.
void flush_that_fails_at_rank_2(SimJob& job) {
  job.set("SCR_FLUSH", "1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, "ckpt.1/r2/");
    ASSERT_TRUE(rt.start_output("ckpt.1", kFlagCheckpoint).ok());
    auto path = rt.route_file("ckpt.1/r" + std::to_string(world.rank()) + "/data");
    ASSERT_TRUE(path.ok()) << path.status().message();
    ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), *path, file_bytes("ckpt.1", world.rank())).ok());
    EXPECT_FALSE(rt.complete_output(true).ok()) << "the failed flush was not reported";
  });
  EXPECT_FALSE(flushed(job, "ckpt.1"));
}

TEST(RuntimeInProcess, AFailedFlushLeavesNoDirectoryOfARankThatCopiedNothing) {
  SimJob job;
  flush_that_fails_at_rank_2(job);
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"))
      << "the failed flush left directories of ckpt.1 in the prefix";
}

// The same failure with an empty ckpt.1/r2/ in the prefix before the flush
// (the application's, say): the directories the flush made go, and that one
// stays, though rank 2's copy was planned into it and left it empty.
TEST(RuntimeInProcess, AFailedFlushKeepsAnEmptyDirectoryThatWasThereBefore) {
  SimJob job;
  ASSERT_TRUE(io::make_dirs(io::Env::posix(), job.prefix() + "/ckpt.1/r2").ok());
  flush_that_fails_at_rank_2(job);
  ASSERT_TRUE(std::filesystem::is_directory(job.prefix() + "/ckpt.1/r2")) << "the directory that was there before";
  std::set<std::string> left;
  for (const auto& e : std::filesystem::recursive_directory_iterator(job.prefix() + "/ckpt.1"))
    left.insert(e.path().lexically_relative(job.prefix()).string());
  EXPECT_EQ(left, std::set<std::string>{"ckpt.1/r2"});
}

// What the prefix's .scr holds of datasets: the scr.dataset.<id> directories.
std::set<std::string> dataset_dirs(const SimJob& job) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(job.prefix() + "/.scr"))
    if (e.path().filename().string().starts_with("scr.dataset.")) out.insert(e.path().filename());
  return out;
}

// The prefix fills up while rank 0 records the flush of ckpt.2 (SCR 3.1's
// rank2file map, after summary.scrpp was written), sync or async: the
// record takes itself back with the copies, leaving neither summary files
// nor an index entry for ckpt.2. ckpt.1 stays current, and the next run's
// SCR_Finalize flushes the cached ckpt.2.
void fail_the_record_of_the_second_flush(bool async) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  if (async) job.set("SCR_FLUSH_ASYNC", "1");
  job.checkpoint("ckpt.1");
  ASSERT_EQ(dataset_dirs(job), std::set<std::string>{"scr.dataset.1"});
  job.run([&](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 0) inject_faults(rt).fail_write(1, ENOSPC, "rank2file");
    Status st = write_checkpoint(rt, world.rank(), "ckpt.2");
    if (!async) {
      EXPECT_EQ(st.code(), Errc::no_space) << st.to_string();
    }
    (void)rt.finalize();
  });
  EXPECT_EQ(dataset_dirs(job), std::set<std::string>{"scr.dataset.1"});
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.2"));
  EXPECT_FALSE(load_index(job).find_name("ckpt.2")) << "ckpt.2 is still in the index";
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
  job.restart_from("ckpt.2");
  EXPECT_TRUE(flushed(job, "ckpt.2"));
}

TEST(RuntimeInProcess, AFlushWhoseRecordFailsLeavesNoSummaryNorEntry) {
  fail_the_record_of_the_second_flush(false);
}

TEST(RuntimeInProcess, AnAsyncFlushWhoseRecordFailsLeavesNoSummaryNorEntry) {
  fail_the_record_of_the_second_flush(true);
}

// With cache bypass the files are the application's, written in place: a
// record that fails keeps them, but neither its summary files nor its entry.
TEST(RuntimeInProcess, ABypassRecordThatFailsKeepsTheFilesNotTheSummaryNorTheEntry) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    if (world.rank() == 0) inject_faults(rt).fail_write(1, ENOSPC, "summary.scr");
    EXPECT_EQ(write_checkpoint(rt, world.rank(), "ckpt.2").code(), Errc::no_space);
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_EQ(dataset_dirs(job), std::set<std::string>{"scr.dataset.1"});
  for (int r = 0; r < SimJob::kRanks; ++r)
    EXPECT_TRUE(io::Env::posix().exists(job.prefix() + "/" + file_name("ckpt.2", r))) << r;
  EXPECT_FALSE(load_index(job).find_name("ckpt.2")) << "ckpt.2 is still in the index";
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
  job.restart_from("ckpt.1");
}

TEST(RuntimeInProcess, AFullPrefixFailsTheListingNotTheRestartFromCache) {
  SimJob job;
  job.checkpoint("ckpt.1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 0) inject_faults(rt).fail_write(1, ENOSPC, "scrpp.files.");
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    ASSERT_TRUE(have);
    auto started = rt.start_restart();
    ASSERT_TRUE(started.ok()) << started.status().to_string();
    auto path = rt.route_file(file_name(name, world.rank()));
    ASSERT_TRUE(path.ok()) << path.status().to_string();
    auto bytes = io::read_file(io::Env::posix(), *path, 1 << 20);
    EXPECT_TRUE(bytes.ok() && *bytes == file_bytes(name, world.rank()));
    auto listing = rt.restart_listing();
    EXPECT_EQ(listing.status().code(), Errc::no_space) << "rank " << world.rank();
    auto ranks = rt.restart_ranks();
    EXPECT_TRUE(ranks.ok() && *ranks == world.size());
    EXPECT_TRUE(rt.complete_restart(true).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

}  // namespace
}  // namespace scr::rt::testing
