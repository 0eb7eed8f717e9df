// A flushed checkpoint survives the loss of every cache: the next job
// fetches it from the prefix.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, FetchRestoresAFlushedCheckpointAfterEveryCacheIsLost) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

// A fetch that fails because the cache is full says nothing about the
// checkpoint: it must stay loadable (not marked FAILED) for the next job.
TEST(RuntimeInProcess, FetchIntoAFullCacheLeavesTheCheckpointLoadable) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
  job.set("SCR_FAULT_INJECT", "write:rank_:1:ENOSPC");  // the first cached file
  job.run([](mpi::Comm&, Runtime& rt) {
    bool have = true;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_FALSE(have) << "a fetch into a full cache offered " << name;
  });
  job.settings.erase("SCR_FAULT_INJECT");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

namespace fs = std::filesystem;

// The cached copies of `file` ("rank_1.dat") on every simulated node.
std::vector<fs::path> cached_copies(const SimJob& job, const std::string& file) {
  std::vector<fs::path> out;
  fs::path cache = fs::path(job.prefix()).parent_path() / "cache";
  for (const auto& e : fs::recursive_directory_iterator(cache))
    if (e.is_regular_file() && e.path().filename() == file) out.push_back(e.path());
  return out;
}

// A SINGLE checkpoint fetched into cache is protected with the checksums
// the fetch checked, not with checksums read again: the next restart in
// place accepts the intact copy and refuses a damaged one.
TEST(RuntimeInProcess, AFetchedSingleCheckpointKeepsItsChecksumsInCache) {
  SimJob job;
  job.set("SCR_COPY_TYPE", "SINGLE");
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
  // The fetch reads each file from the prefix once; nothing in cache is
  // read again for its checksum.
  job.before_init = [](io::FaultEnv& fs) { fs.count_reads("/cache/"); };
  std::atomic<int> cache_reads{0};
  job.run([&](mpi::Comm& world, Runtime& rt) {
    cache_reads += inject_faults(rt).reads();
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.before_init = nullptr;
  EXPECT_EQ(cache_reads, 0) << "fetched files were read again in cache";
  // Without the prefix copy, only the cache can serve the next restart.
  fs::remove_all(fs::path(job.prefix()) / "ckpt.1");
  job.restart_from("ckpt.1");
  auto copies = cached_copies(job, "rank_1.dat");
  ASSERT_EQ(copies.size(), 1u);
  {
    std::fstream f(copies[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    f.put('#');  // same size, other bytes
  }
  job.restart_from("");  // nothing usable: never the damaged bytes
}

// A checkpoint fetched into cache is protected again from what the fetch
// recorded of each copy (its size, mode and times, taken from the copy
// itself): that protection must hold on its own. With the prefix copy gone,
// a node lost after the fetch is rebuilt from the cache, for every scheme
// that can, with the mode and times the files had in the prefix.
TEST(RuntimeInProcess, AFetchedCheckpointIsProtectedWellEnoughToRebuildANode) {
  for (const char* scheme : {"XOR", "RS", "PARTNER"}) {
    SCOPED_TRACE(scheme);
    SimJob job;
    job.set("SCR_COPY_TYPE", scheme);
    job.set("SCR_FLUSH", "1");
    job.checkpoint("ckpt.1");
    job.lose_every_node();
    const timespec mtime{1600000000, 123456789};
    for (int r = 0; r < SimJob::kRanks; ++r) {
      fs::path f = fs::path(job.prefix()) / "ckpt.1" / ("rank_" + std::to_string(r) + ".dat");
      ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
      const timespec times[2] = {mtime, mtime};
      ASSERT_EQ(::utimensat(AT_FDCWD, f.c_str(), times, 0), 0);
    }
    job.restart_from("ckpt.1");  // fetched, then protected in cache
    fs::remove_all(fs::path(job.prefix()) / "ckpt.1");
    job.lose_node(2);
    job.restart_from("ckpt.1");  // rebuilt from the other nodes' caches
    auto copies = cached_copies(job, "rank_2.dat");
    ASSERT_EQ(copies.size(), 1u);
    struct stat st {};
    ASSERT_EQ(::stat(copies[0].c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(st.st_mtim.tv_sec, mtime.tv_sec);
    EXPECT_EQ(st.st_mtim.tv_nsec, mtime.tv_nsec);
  }
}

}  // namespace
}  // namespace scr::rt::testing
