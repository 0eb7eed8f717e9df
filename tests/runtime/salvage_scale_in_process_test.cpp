// The salvage of a cached checkpoint written by a job of another size
// (runtime/transfer/salvage.hpp) at 32 and 128 in-process ranks: a job of
// 2N ranks on N simulated nodes writes an XOR checkpoint to the cache only,
// one node is lost, and a job of N ranks (one per node) makes it whole in
// the prefix at SCR_Init. What a process sends for it must grow with the
// logarithm of the job size, never with the job: no process is handed every
// old rank's file list, and each reads only the redundancy files of the
// old ranks it copied and of the sets it rebuilds.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"
#include "runtime/runtime.hpp"
#include "sim_job.hpp"

namespace {

using namespace scr;
using rt::testing::config_from;
using rt::testing::file_bytes;
using rt::testing::write_checkpoint;

constexpr size_t kStack = 1 << 20;

std::string nodes(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? ",n" : "n") + std::to_string(i);
  return out;
}

// Counts the opens for reading of redundancy files in the prefix: the
// headers a process reads (survey) and the data of the sets it rebuilds.
class CountingEnv : public io::EnvWrapper {
 public:
  CountingEnv(io::Env& target, std::string prefix) : EnvWrapper(target), prefix_(std::move(prefix)) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    if (mode == io::OpenMode::read && path.rfind(prefix_, 0) == 0 && path.ends_with(".redset")) ++reads;
    return EnvWrapper::open(path, mode, perms);
  }
  int reads = 0;

 private:
  std::string prefix_;
};

struct Cost {
  double bytes_mean = 0;  // sent per process
  int reads_max = 0;      // redundancy files in the prefix opened by one process
};

// What a rank of a job of `ranks` spends in its SCR_Init: with `salvage`,
// the Init that salvages the cached checkpoint of the job of 2 x `ranks`
// (and checks every old rank's file came out whole in the prefix);
// without, an Init with nothing cached, the part of it that is no salvage.
Cost init_cost(int ranks, bool salvage) {
  // Memory, not disk: hundreds of ranks write and sync files here.
  char tmpl[] = "/dev/shm/scr_salvage_scale.XXXXXX";
  EXPECT_NE(::mkdtemp(tmpl), nullptr);
  std::string root = tmpl, prefix = root + "/prefix", cache = root + "/cache", cntl = root + "/cntl";
  EXPECT_TRUE(io::make_dirs(io::Env::posix(), prefix, 0700).ok());
  std::map<std::string, std::string> settings = rt::testing::sim_settings(root);
  settings["SCR_SIM_NODES"] = nodes(ranks);
  settings["SCR_SET_SIZE"] = "8";
  // Only the salvage: no restart at the new size, which reads the summary
  // (a cost of its own).
  settings["SCR_FETCH"] = "0";
  rt::Config cfg = config_from(settings, prefix);
  if (salvage) {
    mpi::InProcess(2 * ranks, kStack).run([&](mpi::Comm& world) {
      auto rt = rt::Runtime::init(cfg, world);
      ASSERT_TRUE(rt.ok()) << rt.status().to_string();
      EXPECT_TRUE(write_checkpoint(**rt, world.rank(), "ckpt").ok());
      EXPECT_TRUE((*rt)->finalize().ok());
    });
    EXPECT_FALSE(io::Env::posix().stat(prefix + "/ckpt/rank_0.dat").ok()) << "flushed before the salvage";
    // The last node's two old ranks are lost: rebuilt from their XOR sets.
    std::string lost = "/n" + std::to_string(ranks - 1);
    (void)io::remove_tree(io::Env::posix(), cache + lost);
    (void)io::remove_tree(io::Env::posix(), cntl + lost);
  }
  std::vector<uint64_t> sent(static_cast<size_t>(ranks), 0);
  std::vector<int> reads(static_cast<size_t>(ranks), 0);
  mpi::InProcess(ranks, kStack).run([&](mpi::Comm& world) {
    CountingEnv fs(io::Env::posix(), prefix);
    uint64_t before = mpi::thread_traffic().bytes;
    auto rt = rt::Runtime::init(cfg, world, &fs);
    sent[static_cast<size_t>(world.rank())] = mpi::thread_traffic().bytes - before;
    reads[static_cast<size_t>(world.rank())] = fs.reads;
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  if (salvage)
    for (int r = 0; r < 2 * ranks; ++r) {
      auto bytes = io::read_file(io::Env::posix(), prefix + "/ckpt/rank_" + std::to_string(r) + ".dat", 1 << 20);
      EXPECT_TRUE(bytes.ok() && *bytes == file_bytes("ckpt", r)) << "old rank " << r << "'s file in the prefix";
    }
  (void)io::remove_tree(io::Env::posix(), root);
  Cost cost;
  for (uint64_t b : sent) cost.bytes_mean += static_cast<double>(b) / ranks;
  cost.reads_max = *std::max_element(reads.begin(), reads.end());
  return cost;
}

TEST(SalvageScale, WhatAProcessSendsAndReadsGrowsUnderTheJob) {
  Cost small = init_cost(32, true), large = init_cost(128, true);
  double small_bytes = small.bytes_mean - init_cost(32, false).bytes_mean;
  double large_bytes = large.bytes_mean - init_cost(128, false).bytes_mean;
  RecordProperty("salvage_bytes_mean_32", std::to_string(small_bytes));
  RecordProperty("salvage_bytes_mean_128", std::to_string(large_bytes));
  ASSERT_GT(small_bytes, 0);
  // A broadcast of every old rank's entry grows 4x; trees of processes
  // grow by log2(128) / log2(32) = 1.4x.
  EXPECT_LT(large_bytes, 2 * small_bytes) << "mean bytes a process sends in the salvage: " << small_bytes
                                          << " at 32 ranks, " << large_bytes << " at 128";
  // Its copied old ranks' headers and its sets' files, the same at any
  // size; a survey of every old rank would read 64, then 256.
  EXPECT_LE(large.reads_max, small.reads_max) << "redundancy files one process opened";
  EXPECT_LT(small.reads_max, 64) << "redundancy files one process opened";
  std::printf("salvage: per process, mean bytes sent %.0f at 32 ranks, %.0f at 128; redundancy files read "
              "at most %d, %d\n",
              small_bytes, large_bytes, small.reads_max, large.reads_max);
}

}  // namespace
