// The redundancy file of an evicted checkpoint is kept as its process's
// spare and the next checkpoint's redundancy file is written over it (its
// tmpfs pages reused, not freed and handed out again): the new file takes
// the old one's inode, no spare outlives the encode, SCR_Finalize or a
// killed run, and a lost node is rebuilt from the reused file byte for byte.
// 4 in-process ranks on 4 simulated nodes (sim_job.hpp).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "io/files.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

namespace fs = std::filesystem;

fs::path cache_root(const SimJob& job) { return fs::path(job.prefix()).parent_path() / "cache"; }

// Every regular file below the caches whose name starts with `start`.
std::set<fs::path> cached_files(const SimJob& job, const std::string& start) {
  std::set<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(cache_root(job)))
    if (e.is_regular_file() && e.path().filename().string().rfind(start, 0) == 0) out.insert(e.path());
  return out;
}

std::set<ino_t> inodes(const std::set<fs::path>& files) {
  std::set<ino_t> out;
  for (const auto& f : files) {
    struct stat st{};
    if (::lstat(f.c_str(), &st) == 0) out.insert(st.st_ino);
  }
  return out;
}

constexpr const char* kRedundancy = "reddesc.";
constexpr const char* kSpare = "scr.spare.";

class Spare : public ::testing::TestWithParam<const char*> {};

TEST_P(Spare, TheNextCheckpointWritesOverTheEvictedRedundancyFile) {
  SimJob job;
  job.set("SCR_COPY_TYPE", GetParam());
  job.set("SCR_FLUSH", "0");  // SCR_CACHE_SIZE=1: ckpt.1 goes for ckpt.2
  std::set<ino_t> first, second;
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    world.barrier();
    if (world.rank() == 0) first = inodes(cached_files(job, kRedundancy));
    world.barrier();
    // Starting ckpt.2 evicts ckpt.1: its redundancy files become the spares.
    ASSERT_TRUE(rt.start_output("ckpt.2", kFlagCheckpoint).ok());
    world.barrier();
    if (world.rank() == 0) {
      EXPECT_EQ(inodes(cached_files(job, kSpare)), first);
      EXPECT_EQ(cached_files(job, kRedundancy).size(), 0u);
    }
    world.barrier();
    auto path = rt.route_file(file_name("ckpt.2", world.rank()));
    ASSERT_TRUE(path.ok());
    ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), *path, file_bytes("ckpt.2", world.rank())).ok());
    ASSERT_TRUE(rt.complete_output(true).ok());
    world.barrier();
    if (world.rank() == 0) {
      second = inodes(cached_files(job, kRedundancy));
      EXPECT_EQ(cached_files(job, kSpare).size(), 0u) << "a spare outlived the encode";
    }
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_EQ(first.size(), 4u);
  EXPECT_EQ(second, first) << "ckpt.2's redundancy files are new files, not ckpt.1's written over";
  job.lose_node(1);
  job.restart_from("ckpt.2");
}

INSTANTIATE_TEST_SUITE_P(Schemes, Spare, ::testing::Values("XOR", "PARTNER", "RS"));

// An output phase ended by SCR_Finalize (the application stopped between
// SCR_Start_output, which evicted ckpt.1, and SCR_Complete_output) leaves no
// spare behind.
TEST(SpareLife, SCRFinalizeRemovesASpareNoEncodeTook) {
  SimJob job;
  job.set("SCR_FLUSH", "0");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    ASSERT_TRUE(rt.start_output("ckpt.2", kFlagCheckpoint).ok());
    world.barrier();
    if (world.rank() == 0) {
      EXPECT_EQ(cached_files(job, kSpare).size(), 4u) << "ckpt.1 was evicted";
    }
    world.barrier();
    (void)rt.finalize();
  });
  EXPECT_EQ(cached_files(job, kSpare).size(), 0u);
}

// A spare a killed run left (in the job's cache directory, beside the
// datasets) is removed by the next SCR_Init, and the restart is not upset.
TEST(SpareLife, SCRInitSweepsTheSparesOfAKilledRun) {
  SimJob job;
  job.set("SCR_FLUSH", "0");
  job.checkpoint("ckpt.1");
  std::set<fs::path> left;
  for (const auto& red : cached_files(job, kRedundancy)) {
    // <job cache dir>/scr.dataset.<id>/.scr/<redundancy file>
    fs::path spare = red.parent_path().parent_path().parent_path() / "scr.spare.9";
    std::ofstream(spare) << std::string(5000, 'x');
    left.insert(spare);
  }
  ASSERT_EQ(left.size(), 4u);
  job.restart_from("ckpt.1");
  for (const auto& spare : left) EXPECT_FALSE(fs::exists(spare)) << spare;
}

}  // namespace
}  // namespace scr::rt::testing
