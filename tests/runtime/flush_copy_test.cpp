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
#include "runtime/prefix/deferred.hpp"
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
  job.dirs = {prefix + "/ckpt", prefix + "/.scr"};
  job.items.push_back({cache + "/ckpt/rank_0.dat", prefix + "/ckpt/rank_0.dat", true, crc});
  return job;
}

TEST(FlushCopy, CopiesAFileMatchingItsRecordedCrc) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::string text = "checkpoint data of rank 0";
  write(cache + "/ckpt/rank_0.dat", text);
  uint32_t crc = crc32c(text.data(), text.size());
  rt::Deferred deferred;
  auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc), prefix, deferred);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  auto files = rt::summary_files(*got);
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(files->front().name, "ckpt/rank_0.dat");
  EXPECT_EQ(files->front().crc, crc);
  EXPECT_EQ(files->front().size, text.size());
  EXPECT_TRUE(std::filesystem::exists(prefix + "/ckpt/rank_0.dat"));
  EXPECT_TRUE(deferred.empty()) << "a new name was held back";
}

TEST(FlushCopy, RefusesAFileChangedSinceComplete) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::string text = "checkpoint data of rank 0";
  uint32_t crc = crc32c(text.data(), text.size());
  write(cache + "/ckpt/rank_0.dat", "checkpoint data of rank 1");  // same size, other bytes
  // An older flush left a file of that name: it must survive the refused copy.
  write(prefix + "/ckpt/rank_0.dat", "older flushed data");
  rt::Deferred deferred;
  auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc), prefix, deferred);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::corrupt);
  std::ifstream in(prefix + "/ckpt/rank_0.dat");
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "older flushed data");
  EXPECT_TRUE(deferred.empty()) << "the failed copy left its temporary";
}

// SCR_CRC_ON_FLUSH=0 turns off the summary CRC of files without a recorded
// one, never the check against a recorded one.
TEST(FlushCopy, RecordedCrcIsCheckedEvenWithCrcOnFlushOff) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  write(cache + "/ckpt/rank_0.dat", "bytes");
  rt::FlushJob job = job_for(cache, prefix, crc32c("BYTES", 5));
  job.crc = false;
  rt::Deferred deferred;
  EXPECT_EQ(rt::run_copies(io::Env::posix(), job, prefix, deferred).status().code(), Errc::corrupt);
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t entries_in(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// An older dataset's deletion, running beside a background flush (on
// another node, say), removes a directory that the flush made, or found,
// before it copied into it: the flush makes it again and copies. Without
// that the copy fails and so does the flush.
class DirRemovedBeforeCreate : public io::EnvWrapper {
 public:
  DirRemovedBeforeCreate(io::Env& target, std::string file) : io::EnvWrapper(target), file_(std::move(file)) {}
  Result<std::unique_ptr<io::File>> open(const std::string& path, io::OpenMode mode, uint32_t perms) override {
    if (path == file_ && mode == io::OpenMode::create_excl && !removed_) {
      removed_ = true;
      EXPECT_TRUE(target().rmdir(std::filesystem::path(path).parent_path().string()).ok());
    }
    return io::EnvWrapper::open(path, mode, perms);
  }
  bool removed() const { return removed_; }

 private:
  std::string file_;
  bool removed_ = false;
};

TEST(FlushCopy, ADirectoryRemovedUnderTheCopyIsMadeAgain) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::string text = "checkpoint data of rank 0";
  write(cache + "/ckpt/rank_0.dat", text);
  DirRemovedBeforeCreate env(io::Env::posix(), prefix + "/ckpt/rank_0.dat");
  rt::Deferred deferred;
  auto got = rt::run_copies(env, job_for(cache, prefix, crc32c(text.data(), text.size())), prefix, deferred);
  ASSERT_TRUE(env.removed()) << "the copy never created its file";
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  EXPECT_EQ(read(prefix + "/ckpt/rank_0.dat"), text);
  EXPECT_TRUE(deferred.empty()) << "the file was held back";
  EXPECT_EQ(entries_in(prefix + "/.scr"), 0u) << "a list of held-back files was left";
}

// A source gone is not a directory to make: the copy fails, naming it.
TEST(FlushCopy, AMissingSourceFailsTheCopy) {
  scr::testing::TempDir dir;
  std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
  std::filesystem::create_directories(cache + "/ckpt");
  rt::Deferred deferred;
  auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, 0), prefix, deferred);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::not_found);
  EXPECT_NE(got.status().message().find(cache + "/ckpt/rank_0.dat"), std::string::npos) << got.status().message();
  EXPECT_FALSE(std::filesystem::exists(prefix + "/ckpt/rank_0.dat"));
}

// A name an older dataset's file holds: the copy keeps its temporary beside
// it, noted in the prefix's .scr, and the older file stays until the caller
// puts the new one in place (or drops it).
TEST(FlushCopy, AnExistingDestinationIsReplacedOnlyWhenTheCallerSays) {
  for (bool replace : {true, false}) {
    SCOPED_TRACE(replace ? "replaced" : "dropped");
    scr::testing::TempDir dir;
    std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
    std::string text = "checkpoint data of rank 0";
    write(cache + "/ckpt/rank_0.dat", text);
    write(prefix + "/ckpt/rank_0.dat", "older flushed data");
    rt::Deferred deferred;
    auto got = rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc32c(text.data(), text.size())),
                              prefix, deferred);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_EQ(read(prefix + "/ckpt/rank_0.dat"), "older flushed data");
    ASSERT_EQ(deferred.files.size(), 1u);
    EXPECT_EQ(deferred.files[0].dst, prefix + "/ckpt/rank_0.dat");
    EXPECT_EQ(read(deferred.files[0].temp), text);
    ASSERT_EQ(deferred.lists.size(), 1u);
    EXPECT_EQ(deferred.lists[0], rt::deferred_list_path(prefix, 7, 0));
    EXPECT_TRUE(std::filesystem::exists(deferred.lists[0]));
    if (replace) {
      ASSERT_TRUE(rt::replace_deferred(io::Env::posix(), deferred).ok());
      EXPECT_EQ(read(prefix + "/ckpt/rank_0.dat"), text);
    } else {
      rt::drop_deferred(io::Env::posix(), deferred);
      EXPECT_EQ(read(prefix + "/ckpt/rank_0.dat"), "older flushed data");
    }
    EXPECT_TRUE(deferred.empty());
    EXPECT_EQ(entries_in(prefix + "/ckpt"), 1u) << "a temporary was left";
    EXPECT_EQ(entries_in(prefix + "/.scr"), 0u) << "the list was left";
  }
}

// A job killed before it replaced or dropped them: the list names its
// temporaries. The sweep at the next SCR_Init removes them when the index
// does not record the dataset (the older file stays), and puts them in
// place when it does (the job died after recording it); then the list goes.
// Only temporaries inside the prefix, outside its .scr, are touched.
TEST(FlushCopy, TheSweepRollsAKilledFlushBackOrForwardAsTheIndexSays) {
  for (bool recorded : {false, true}) {
    SCOPED_TRACE(recorded ? "recorded" : "not recorded");
    scr::testing::TempDir dir;
    std::string cache = dir.path() + "/cache", prefix = dir.path() + "/prefix";
    write(cache + "/ckpt/rank_0.dat", "new");
    write(prefix + "/ckpt/rank_0.dat", "older flushed data");
    write(dir.path() + "/outside.tmp.1", "not ours");
    rt::Deferred deferred;
    ASSERT_TRUE(rt::run_copies(io::Env::posix(), job_for(cache, prefix, crc32c("new", 3)), prefix, deferred).ok());
    // A killed write of the prefix's own state (.scr), named however the
    // list spells it, is no copy of the flush's.
    write(prefix + "/.scr/state.tmp.1", "partial");
    std::ofstream(rt::deferred_list_path(prefix, 7, 0), std::ios::app)
        << "../outside.tmp.1\nckpt/../.scr/state.tmp.1\n./.scr/state.tmp.1\n" << prefix << "/.scr/state.tmp.1\n";
    std::string name = std::filesystem::path(rt::deferred_list_path(prefix, 7, 0)).filename();
    std::vector<int> asked;
    auto index = [&](int id) {
      asked.push_back(id);
      return recorded;
    };
    EXPECT_FALSE(rt::sweep_deferred(io::Env::posix(), prefix, "scrpp.files.7", index));
    EXPECT_TRUE(rt::sweep_deferred(io::Env::posix(), prefix, name, index));
    EXPECT_EQ(asked, std::vector<int>{7});
    EXPECT_FALSE(std::filesystem::exists(deferred.files[0].temp));
    EXPECT_FALSE(std::filesystem::exists(rt::deferred_list_path(prefix, 7, 0)));
    EXPECT_EQ(read(prefix + "/ckpt/rank_0.dat"), recorded ? "new" : "older flushed data");
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/outside.tmp.1"));
    EXPECT_EQ(read(prefix + "/.scr/state.tmp.1"), "partial");
    EXPECT_FALSE(std::filesystem::exists(prefix + "/.scr/state"));
  }
}

}  // namespace
