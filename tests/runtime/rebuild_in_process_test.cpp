// A checkpoint protected across nodes survives the loss of one node: the
// next job rebuilds the lost files from the other nodes (no prefix
// involved). XOR runs the ring pipeline, RS the gather pipeline, PARTNER the
// streams.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

class RebuildInProcess : public ::testing::TestWithParam<std::string> {};

TEST_P(RebuildInProcess, RebuildsTheFilesOfALostNode) {
  SimJob job;
  job.set("SCR_COPY_TYPE", GetParam());
  job.checkpoint("ckpt.1");
  job.lose_node(2);
  job.restart_from("ckpt.1");
  // Rebuilt from the caches: nothing was ever flushed to fetch from.
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"));
}

// One node lost after another, each loss within what the scheme tolerates
// and rebuilt before the next: the checkpoint is restarted from the cache
// every time, whichever nodes were rebuilt before (each keeps what it needs
// to be rebuilt again, not only its first set of survivors).
TEST_P(RebuildInProcess, SurvivesEveryNodeLostInTurn) {
  SimJob job;
  job.set("SCR_COPY_TYPE", GetParam());
  job.checkpoint("ckpt.1");
  for (int n = 0; n < SimJob::kRanks; ++n) {
    SCOPED_TRACE("node n" + std::to_string(n) + " lost");
    job.lose_node(n);
    job.restart_from("ckpt.1");
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"));
}

namespace fs = std::filesystem;

// A PARTNER rebuild copies the lost member's files from one neighbour and
// its replica from another; every other member only has its own files
// checked against their CRC32C. Each surviving file is opened for reading
// once: the member that sends its files takes their checksums from that
// read, not from a second one after the rebuild.
TEST(RebuildInProcessPartner, ReadsEachSurvivingFileOnce) {
  SimJob job;
  job.set("SCR_COPY_TYPE", "PARTNER");
  job.checkpoint("ckpt.1");
  job.lose_node(2);
  job.before_init = [](io::FaultEnv& fs) { fs.count_reads("/rank_"); };
  std::atomic<int> reads{0};
  job.run([&](mpi::Comm& world, Runtime& rt) {
    reads += inject_faults(rt).reads();
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.before_init = nullptr;
  EXPECT_EQ(reads, SimJob::kRanks - 1) << "a surviving file was read more than once";
  // The checksums so taken still catch damage on a member that sends
  // nothing: rank 0's file, changed in place, is rebuilt from its replica
  // along with the lost node's.
  job.lose_node(2);
  fs::path cache = fs::path(job.prefix()).parent_path() / "cache";
  int damaged = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache))
    if (e.is_regular_file() && e.path().filename() == "rank_0.dat") {
      std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(10);
      f.put('#');  // same size, other bytes
      ++damaged;
    }
  ASSERT_EQ(damaged, 1);
  job.restart_from("ckpt.1");
}

INSTANTIATE_TEST_SUITE_P(Schemes, RebuildInProcess, ::testing::Values("XOR", "RS", "PARTNER"));

}  // namespace
}  // namespace scr::rt::testing
