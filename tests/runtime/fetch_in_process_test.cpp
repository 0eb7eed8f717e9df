// A flushed checkpoint survives the loss of every cache: the next job
// fetches it from the prefix.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "io/files.hpp"
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

// A checkpoint written with cache bypass is read in place from the prefix.
// A job offered it that never completes its restart (the application
// rejected it, or took none) leaves nothing of it in cache: the next
// SCR_Init reports nothing lost, and restarts from it with every byte.
TEST(RuntimeInProcess, ABypassCheckpointNotRestartedFromIsNotReportedLost) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.set("SCR_LOG_ENABLE", "1");
  job.checkpoint("ckpt.1");
  job.checkpoint("ckpt.2");  // offered ckpt.1, took none
  job.run([](mpi::Comm&, Runtime& rt) {
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    ASSERT_TRUE(have);
    EXPECT_EQ(name, "ckpt.2");
    ASSERT_TRUE(rt.start_restart().ok());
    EXPECT_FALSE(rt.complete_restart(false).ok());
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_TRUE(have);
    EXPECT_EQ(name, "ckpt.1") << "the older checkpoint was not offered";
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.restart_from("ckpt.1");
  auto log = io::read_file(io::Env::posix(), job.prefix() + "/.scr/log");
  ASSERT_TRUE(log.ok()) << log.status().to_string();
  EXPECT_EQ(log->find("DATASET_LOST"), std::string::npos) << *log;
  EXPECT_EQ(log->find("DATASET_KEPT"), std::string::npos) << *log;
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
  // read again for its checksum (the application's reads are its own).
  job.before_init = [](io::FaultEnv& fs) { fs.count_reads("rank_"); };
  std::atomic<int> data_reads{0};
  job.run([&](mpi::Comm& world, Runtime& rt) {
    data_reads += inject_faults(rt).reads();
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.before_init = nullptr;
  EXPECT_EQ(data_reads, SimJob::kRanks) << "fetched files were read again in cache";
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

// Checkpoint ckpt.1 written with `scheme` and flushed, then every node's
// cache lost: the next job must fetch it.
void flushed_then_every_cache_lost(SimJob& job, const char* scheme) {
  job.set("SCR_COPY_TYPE", scheme);
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
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
    flushed_then_every_cache_lost(job, scheme);
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

// Every redundancy file below `dir`, by file name.
std::map<std::string, fs::path> redundancy_files_below(const fs::path& dir) {
  std::map<std::string, fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().starts_with("reddesc.")) out[e.path().filename()] = e.path();
  return out;
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// How many of the cached redundancy files are byte for byte the ones the
// flush left in the prefix (one per rank when the fetch took them back; an
// encode writes headers with the copies' own access and change times).
int cached_as_flushed(const SimJob& job) {
  auto flushed = redundancy_files_below(fs::path(job.prefix()) / ".scr");
  auto cached = redundancy_files_below(fs::path(job.prefix()).parent_path() / "cache");
  int same = 0;
  for (const auto& [name, path] : cached)
    if (flushed.count(name) && bytes_of(path) == bytes_of(flushed[name])) ++same;
  return same;
}

// A flushed checkpoint fetched by a job with the same sets takes its
// redundancy files back from the prefix instead of encoding again, and
// they protect the cached copy: with the prefix copy gone, a node lost
// after the fetch is rebuilt from the cache.
TEST(RuntimeInProcess, AFetchTakesBackTheRedundancyFlushedWithTheCheckpoint) {
  for (const char* scheme : {"XOR", "RS", "SINGLE"}) {
    SCOPED_TRACE(scheme);
    SimJob job;
    flushed_then_every_cache_lost(job, scheme);
    job.restart_from("ckpt.1");
    EXPECT_EQ(cached_as_flushed(job), SimJob::kRanks);
    if (std::string(scheme) == "SINGLE") continue;  // nothing to rebuild from
    fs::remove_all(fs::path(job.prefix()) / "ckpt.1");
    job.lose_node(1);
    job.restart_from("ckpt.1");
  }
}

// PARTNER's redundancy file is a whole copy of its neighbours' files: the
// fetch encodes again rather than read it from the prefix.
TEST(RuntimeInProcess, AFetchEncodesPartnerAgain) {
  SimJob job;
  flushed_then_every_cache_lost(job, "PARTNER");
  job.restart_from("ckpt.1");
  EXPECT_EQ(cached_as_flushed(job), 0);
}

// A flushed parity that no longer matches its CRC32C is never taken back:
// the fetch encodes again, and a node lost afterwards is rebuilt right.
TEST(RuntimeInProcess, AFetchEncodesAgainWhenTheFlushedParityIsDamaged) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  for (const auto& [name, path] : redundancy_files_below(fs::path(job.prefix()) / ".scr")) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    auto size = static_cast<std::streamoff>(f.tellg());
    ASSERT_GT(size, 4096) << name;
    f.seekp(size - 1);  // the last byte of the parity: the header stays valid
    f.put('\x5a');
  }
  job.lose_every_node();
  job.restart_from("ckpt.1");
  EXPECT_EQ(cached_as_flushed(job), 0);
  fs::remove_all(fs::path(job.prefix()) / "ckpt.1");
  job.lose_node(3);
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
