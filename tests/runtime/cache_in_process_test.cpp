// The node cache across jobs, in-process: eviction keeps SCR_CACHE_SIZE
// checkpoints (the newest), and a job whose ranks run on other nodes than
// the writers' gets their files moved to it (distribute) before it restarts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/files.hpp"
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

// As SCR documents: inside a restart "only a file name" is needed. Each rank
// wrote ckpt.1/rank_<r>.dat and reads it back as rank_<r>.dat, from cache and
// then, every node lost, from the prefix.
TEST(RuntimeInProcess, ARestartRoutesAFileByItsNameAlone) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  auto read_back = [&] {
    job.run([](mpi::Comm& world, Runtime& rt) {
      bool have = false;
      std::string name;
      ASSERT_TRUE(rt.have_restart(&have, &name).ok());
      ASSERT_TRUE(have);
      ASSERT_TRUE(rt.start_restart().ok());
      auto path = rt.route_file("rank_" + std::to_string(world.rank()) + ".dat");
      ASSERT_TRUE(path.ok()) << path.status().to_string();
      EXPECT_EQ(fs::path(*path).parent_path().filename(), "ckpt.1") << *path;
      auto bytes = io::read_file(io::Env::posix(), *path, 1 << 20);
      ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
      EXPECT_EQ(*bytes, file_bytes("ckpt.1", world.rank()));
      EXPECT_TRUE(rt.complete_restart(true).ok());
      EXPECT_TRUE(rt.finalize().ok());
    });
  };
  read_back();
  job.lose_every_node();
  read_back();
}

// Read in place (cache bypass), as in SCR: a restart may route any readable
// file of the prefix, not only the checkpoint's; a missing one is an error.
TEST(RuntimeInProcess, ARestartReadInPlaceRoutesOtherPrefixFilesToo) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.checkpoint("ckpt.1");
  std::ofstream(fs::path(job.prefix()) / "input.dat") << "mesh";
  job.run([&](mpi::Comm& world, Runtime& rt) {
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    ASSERT_TRUE(have);
    ASSERT_TRUE(rt.start_restart().ok());
    auto input = rt.route_file("input.dat");
    ASSERT_TRUE(input.ok()) << input.status().to_string();
    EXPECT_EQ(*input, (fs::path(job.prefix()) / "input.dat").string());
    EXPECT_EQ(rt.route_file("no-such-input.dat").status().code(), Errc::not_found);
    auto own = rt.route_file("rank_" + std::to_string(world.rank()) + ".dat");  // by name alone
    ASSERT_TRUE(own.ok()) << own.status().to_string();
    EXPECT_TRUE(rt.complete_restart(true).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

// The redundancy sets are formed at SCR_Init: a cached descriptor whose
// failure group has no value for some node fails Init, on every process,
// naming the group; the same configuration with cache bypass (which forms no
// sets) starts.
TEST(RuntimeInProcess, InitFormsTheSetsOfEveryCachingDescriptor) {
  SimJob job;
  std::string conf = fs::path(job.prefix()).parent_path() / "groups.conf";
  std::ofstream(conf) << "GROUPS=n0 POWER=psu0\nGROUPS=n1 POWER=psu0\nGROUPS=n2 POWER=psu1\n";
  job.set("SCR_CONF_FILE", conf);
  job.set("SCR_GROUP", "POWER");
  for (const Status& st : job.init_only()) {
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("POWER"), std::string::npos) << st.to_string();
  }
  job.set("SCR_CACHE_BYPASS", "1");
  for (const Status& st : job.init_only()) EXPECT_TRUE(st.ok()) << st.to_string();
  // With every node in a POWER group, the cached descriptor works.
  job.set("SCR_CACHE_BYPASS", "0");
  std::ofstream(conf, std::ios::app) << "GROUPS=n3 POWER=psu1\n";
  job.checkpoint("ckpt.1");
  job.lose_node(2);
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
