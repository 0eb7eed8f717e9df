// Taking back the files of a failed flush, scavenge or rebuild in the
// prefix, and the directories made for them, never one that was there before;
// a set of files replaced as one change that can be taken back (a record's
// summary files).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "io/undo_files.hpp"
#include "temp_dir.hpp"

namespace {

using scr::Errc;
using scr::Status;
using scr::io::Env;
using scr::testing::TempDir;
using scr::testing::write_raw;
namespace io = scr::io;

std::vector<std::string> names_in(const std::string& dir) {
  auto r = Env::posix().list_dir(dir);
  if (!r.ok()) return {"<list failed>"};
  std::sort(r->begin(), r->end());
  return *r;
}

// One file that cannot be removed keeps neither the others nor the
// directories they empty from going.
class UnlinkRefused : public io::EnvWrapper {
 public:
  UnlinkRefused(Env& target, std::string refused) : EnvWrapper(target), refused_(std::move(refused)) {}
  Status unlink(const std::string& path) override {
    if (path == refused_) return scr::Error(Errc::permission, "refused: " + path);
    return EnvWrapper::unlink(path);
  }

 private:
  std::string refused_;
};

TEST(RemoveFilesAndMadeDirs, AFileThatCannotBeRemovedStopsNothingElse) {
  TempDir dir;
  std::string top = dir / "prefix";
  ASSERT_TRUE(io::make_dirs(Env::posix(), top).ok());
  std::vector<std::string> made = io::missing_dirs(Env::posix(), top, {top + "/ckpt/r0", top + "/ckpt/r1"});
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt/r0").ok());
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt/r1").ok());
  write_raw(top + "/ckpt/r0/a.dat", "a");
  write_raw(top + "/ckpt/r1/a.dat", "a");
  UnlinkRefused env(Env::posix(), top + "/ckpt/r0/a.dat");
  io::remove_files_and_made_dirs(env, top, {top + "/ckpt/r0/a.dat", top + "/ckpt/r1/a.dat"}, made);
  EXPECT_EQ(names_in(top + "/ckpt"), std::vector<std::string>{"r0"});
  EXPECT_EQ(names_in(top + "/ckpt/r0"), std::vector<std::string>{"a.dat"});
}

std::string content(const std::string& path) {
  auto bytes = io::read_file(Env::posix(), path);
  return bytes ? *bytes : "<absent>";
}

// Files replaced as one change: a.txt held "old", b.txt is new. Once put in
// place, taking the change back leaves the directory as it was; keeping it
// leaves the new contents and nothing beside them.
TEST(StagedFiles, TakenBackAfterItWasInPlaceLeavesEveryFileAsItWas) {
  TempDir dir;
  write_raw(dir / "a.txt", "old");
  for (bool keep : {false, true}) {
    SCOPED_TRACE(keep ? "kept" : "taken back");
    io::StagedFiles files(Env::posix());
    ASSERT_TRUE(files.stage(dir / "a.txt", "new a").ok());
    ASSERT_TRUE(files.stage(dir / "b.txt", "new b").ok());
    EXPECT_EQ(content(dir / "a.txt"), "old") << "in place before put_in_place";
    ASSERT_TRUE(files.put_in_place().ok());
    EXPECT_EQ(content(dir / "a.txt"), "new a");
    EXPECT_EQ(content(dir / "b.txt"), "new b");
    if (keep) files.keep();
    else files.take_back();
    EXPECT_EQ(names_in(dir.path()), keep ? (std::vector<std::string>{"a.txt", "b.txt"})
                                         : (std::vector<std::string>{"a.txt"}));
    EXPECT_EQ(content(dir / "a.txt"), keep ? "new a" : "old");
  }
}

// A full file system while the second file is written: nothing takes its
// name, and nothing of the change is left (dropped undecided: taken back).
TEST(StagedFiles, AWriteThatFailsReplacesNothing) {
  TempDir dir;
  write_raw(dir / "a.txt", "old");
  io::FaultEnv full(Env::posix());
  full.fail_write(2, ENOSPC);
  {
    io::StagedFiles files(full);
    ASSERT_TRUE(files.stage(dir / "a.txt", "new a").ok());
    EXPECT_EQ(files.stage(dir / "b.txt", "new b").code(), Errc::no_space);
  }
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"a.txt"});
  EXPECT_EQ(content(dir / "a.txt"), "old");
}

// Work that may make directories notes those missing first; taking it back
// removes them when empty, and only them: a directory that was there
// before stays, also when the removed files leave it empty.
TEST(RemoveFilesAndMadeDirs, RemovesOnlyTheDirectoriesThatWereMissing) {
  TempDir dir;
  std::string top = dir / "prefix";
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt/r0").ok());  // there before, empty
  std::vector<std::string> made =
      io::missing_dirs(Env::posix(), top, {top + "/ckpt/r0", top + "/ckpt/r1", top + "/new/r2/deep", top});
  EXPECT_EQ(made, (std::vector<std::string>{top + "/ckpt/r1", top + "/new", top + "/new/r2", top + "/new/r2/deep"}));
  for (const char* d : {"/ckpt/r1", "/new/r2/deep"}) ASSERT_TRUE(io::make_dirs(Env::posix(), top + d).ok());
  write_raw(top + "/ckpt/r0/a.dat", "a");
  write_raw(top + "/ckpt/r1/a.dat", "a");
  write_raw(top + "/new/r2/theirs.dat", "t");  // someone else's, put there meanwhile
  io::remove_files_and_made_dirs(Env::posix(), top, {top + "/ckpt/r0/a.dat", top + "/ckpt/r1/a.dat"}, made);
  EXPECT_EQ(names_in(top + "/ckpt"), std::vector<std::string>{"r0"});
  EXPECT_EQ(names_in(top + "/ckpt/r0"), std::vector<std::string>{});
  EXPECT_EQ(names_in(top + "/new/r2"), std::vector<std::string>{"theirs.dat"});
}

// A directory made by the work that was replaced by a symbolic link since:
// nothing is removed through it.
TEST(RemoveFilesAndMadeDirs, NeverReachesThroughASymlink) {
  TempDir dir;
  std::string top = dir / "prefix", elsewhere = dir / "elsewhere";
  ASSERT_TRUE(io::make_dirs(Env::posix(), top).ok());
  ASSERT_TRUE(io::make_dirs(Env::posix(), elsewhere + "/r0").ok());
  std::vector<std::string> made = io::missing_dirs(Env::posix(), top, {top + "/ckpt/r0"});
  ASSERT_EQ(made, (std::vector<std::string>{top + "/ckpt", top + "/ckpt/r0"}));
  ASSERT_EQ(::symlink(elsewhere.c_str(), (top + "/ckpt").c_str()), 0);
  io::remove_files_and_made_dirs(Env::posix(), top, {}, made);
  EXPECT_EQ(names_in(elsewhere), std::vector<std::string>{"r0"});
  EXPECT_EQ(names_in(top), std::vector<std::string>{"ckpt"});
}

}  // namespace
