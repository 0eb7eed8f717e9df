// SCR_Delete and SCR_PREFIX_PURGE=1 take a checkpoint out of the saved
// index before they delete any of its files: when the index cannot be
// saved the checkpoint stays listed and whole, and when a file cannot be
// deleted it stays in the prefix unlisted, never a listed checkpoint whose
// files are gone. 4 in-process ranks on 4 simulated nodes (sim_job.hpp).
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "io/fault_env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

namespace fs = std::filesystem;

// Every write to the prefix's index (its temporary included) fails.
constexpr const char* kIndexPath = "/.scr/index.scr";

// ckpt.1 and ckpt.2 flushed to the prefix.
void flush_two(SimJob& job) {
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.checkpoint("ckpt.2");
  ASSERT_TRUE(flushed(job, "ckpt.1"));
  ASSERT_TRUE(flushed(job, "ckpt.2"));
}

bool all_files_of(const SimJob& job, const std::string& name) {
  for (int r = 0; r < 4; ++r)
    if (!fs::exists(job.prefix() + "/" + file_name(name, r))) return false;
  return true;
}

TEST(DeleteOrder, SCRDeleteWhoseIndexSaveFailsDeletesNoFile) {
  SimJob job;
  flush_two(job);
  job.run([&](mpi::Comm& world, Runtime& rt) {
    if (world.rank() == 0) inject_faults(rt).fail_write(1, EIO, kIndexPath);
    EXPECT_FALSE(rt.remove("ckpt.1").ok()) << "rank " << world.rank();
    if (world.rank() == 0) inject_faults(rt).disarm();
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_TRUE(load_index(job).find_name("ckpt.1").has_value());
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_TRUE(all_files_of(job, "ckpt.1")) << "the index lists a checkpoint whose files were deleted";
  // Still loadable: deleting ckpt.2 makes the restart fall back to it.
  job.run([&](mpi::Comm&, Runtime& rt) {
    EXPECT_TRUE(rt.remove("ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

TEST(DeleteOrder, AFileSCRDeleteCannotDeleteStaysUnlisted) {
  SimJob job;
  flush_two(job);
  job.run([&](mpi::Comm& world, Runtime& rt) {
    // Rank 0 deletes the prefix's files; its file system stops at the first.
    if (world.rank() == 0) inject_faults(rt).crash_at_step(1, job.prefix() + "/ckpt.1/");
    EXPECT_FALSE(rt.remove("ckpt.1").ok()) << "rank " << world.rank() << ": a file that stayed went unreported";
  });
  EXPECT_FALSE(load_index(job).find_name("ckpt.1").has_value());
  EXPECT_TRUE(fs::exists(job.prefix() + "/" + file_name("ckpt.1", 0)));
  EXPECT_TRUE(flushed(job, "ckpt.2"));
}

TEST(DeleteOrder, APurgeWhoseIndexSaveFailsDeletesNoFile) {
  SimJob job;
  flush_two(job);
  job.set("SCR_PREFIX_PURGE", "1");
  job.before_init = [](io::FaultEnv& faults) { faults.fail_write(1, EIO, kIndexPath); };
  for (const Status& st : job.init_only()) EXPECT_FALSE(st.ok()) << "SCR_Init hid a purge that failed";
  job.before_init = nullptr;
  EXPECT_TRUE(flushed(job, "ckpt.1"));
  EXPECT_TRUE(flushed(job, "ckpt.2"));
  EXPECT_TRUE(all_files_of(job, "ckpt.1")) << "the index lists a checkpoint whose files were deleted";
  EXPECT_TRUE(all_files_of(job, "ckpt.2")) << "the index lists a checkpoint whose files were deleted";
  // The purge that gets through deletes both.
  for (const Status& st : job.init_only()) EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_FALSE(load_index(job).find_name("ckpt.1").has_value());
  EXPECT_FALSE(fs::exists(job.prefix() + "/" + file_name("ckpt.1", 0)));
  EXPECT_FALSE(fs::exists(job.prefix() + "/" + file_name("ckpt.2", 0)));
}

}  // namespace
}  // namespace scr::rt::testing
