// The node cache across jobs, in-process: eviction keeps SCR_CACHE_SIZE
// checkpoints (the newest), and a job whose ranks run on other nodes than
// the writers' gets their files moved to it (distribute) before it restarts.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

namespace fs = std::filesystem;

// Dataset directories (scr.dataset.<id>) in one simulated node's cache.
int cached_datasets(const SimJob& job, const std::string& node) {
  int n = 0;
  fs::path base = fs::path(job.prefix()).parent_path() / "cache" / node;
  for (const auto& e : fs::recursive_directory_iterator(base))
    if (e.is_directory() && e.path().filename().string().rfind("scr.dataset.", 0) == 0) ++n;
  return n;
}

TEST(RuntimeInProcess, EvictionKeepsTheNewestCheckpointsOfTheCacheSize) {
  SimJob job;
  job.set("SCR_CACHE_SIZE", "2");
  job.set("SCR_FLUSH", "0");
  for (const char* name : {"ckpt.1", "ckpt.2", "ckpt.3"}) job.checkpoint(name);
  for (const char* node : {"n0", "n1", "n2", "n3"}) EXPECT_EQ(cached_datasets(job, node), 2) << node;
  job.lose_node(1);  // XOR still rebuilds the newest
  job.restart_from("ckpt.3");
}

TEST(RuntimeInProcess, RanksOnOtherNodesGetTheirFilesDistributed) {
  SimJob job;
  job.set("SCR_FLUSH", "0");
  job.checkpoint("ckpt.1");
  // Every rank now runs where another rank wrote: only a move between nodes
  // (no prefix copy exists) gives each its own files back.
  job.set("SCR_SIM_NODES", "n1,n0,n3,n2");
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
