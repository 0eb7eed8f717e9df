// The flush copy (rt::run_copies, MPI-free) checks every cached file against
// the CRC32C recorded when its dataset completed: a file damaged in cache
// never reaches the prefix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../io/temp_dir.hpp"
#include "common/crc32c.hpp"
#include "io/env.hpp"
#include "kvtree/tree.hpp"
#include "runtime/prefix/flush_copy.hpp"
#include "runtime/prefix/summary.hpp"

namespace {

using namespace scr;

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

rt::FlushJob job_for(const std::string& cache, const std::string& prefix, uint32_t crc) {
  rt::FlushJob job;
  job.id = 7;
  job.dirs = {prefix + "/ckpt"};
  job.items.push_back({cache + "/ckpt/rank_0.dat", prefix + "/ckpt/rank_0.dat", true, crc});
  return job;
}

TEST(FlushCopy, CopiesAFileMatchingItsRecordedCrc) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::string text = "checkpoint data of rank 0";
  write(cache + "/ckpt/rank_0.dat", text);
  uint32_t crc = crc32c(text.data(), text.size());
  auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc), prefix);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  auto files = rt::summary_files(*got);
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->front().name, "ckpt/rank_0.dat");
  EXPECT_EQ(files->front().crc, crc);
  EXPECT_EQ(files->front().size, text.size());
  EXPECT_TRUE(std::filesystem::exists(prefix + "/ckpt/rank_0.dat"));
}

TEST(FlushCopy, RefusesAFileChangedSinceComplete) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::string text = "checkpoint data of rank 0";
  uint32_t crc = crc32c(text.data(), text.size());
  write(cache + "/ckpt/rank_0.dat", "checkpoint data of rank 1");  // same size, other bytes
  // An older flush left a file of that name: it must survive the refused copy.
  write(prefix + "/ckpt/rank_0.dat", "older flushed data");
  auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc), prefix);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::corrupt);
  std::ifstream in(prefix + "/ckpt/rank_0.dat");
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "older flushed data");
}

// SCR_CRC_ON_FLUSH=0 turns off the summary CRC of files without a recorded
// one, never the check against a recorded one.
TEST(FlushCopy, RecordedCrcIsCheckedEvenWithCrcOnFlushOff) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  write(cache + "/ckpt/rank_0.dat", "bytes");
  rt::FlushJob job = job_for(cache, prefix, crc32c("BYTES", 5));
  job.crc = false;
  EXPECT_EQ(rt::run_copies(io::Env::posix(), job, prefix).status().code(), Errc::corrupt);
}

}  // namespace
