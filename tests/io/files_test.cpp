// Whole-file helpers: crash-safe replacement, bounded reads, tree files,
// private directories, streaming copies.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/crc32c.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "temp_dir.hpp"

namespace {

using scr::Errc;
using scr::io::Env;
using scr::io::FaultEnv;
using scr::io::OpenMode;
using scr::kv::Tree;
using scr::testing::mode_of;
using scr::testing::read_raw;
using scr::testing::TempDir;
using scr::testing::write_raw;
namespace io = scr::io;

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

std::vector<std::string> names_in(const std::string& dir) {
  auto r = Env::posix().list_dir(dir);
  return r.ok() ? *r : std::vector<std::string>{"<list failed>"};
}

// --- remove_emptied_dirs -----------------------------------------------------

TEST(RemoveEmptiedDirs, RemovesWhatTheFilesLeftEmptyUpToTheTop) {
  TempDir dir;
  std::string top = dir / "prefix";
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt.1/sub/deep").ok());
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt.1/other").ok());
  write_raw(top + "/ckpt.1/other/kept", "x");
  io::remove_emptied_dirs(Env::posix(), top, {top + "/ckpt.1/sub/deep/gone.dat", top + "/ckpt.1/sub/deep/gone2.dat"});
  EXPECT_EQ(names_in(top + "/ckpt.1"), std::vector<std::string>{"other"}) << "sub/deep should be gone";
  // Once the last file goes, everything up to the top does, but not the top.
  ASSERT_TRUE(io::remove_file(Env::posix(), top + "/ckpt.1/other/kept").ok());
  io::remove_emptied_dirs(Env::posix(), top, {top + "/ckpt.1/other/kept"});
  EXPECT_EQ(names_in(top), std::vector<std::string>{});
  // A path outside the top touches nothing.
  ASSERT_TRUE(io::make_dirs(Env::posix(), dir / "elsewhere/empty").ok());
  io::remove_emptied_dirs(Env::posix(), top, {dir / "elsewhere/empty/f"});
  EXPECT_EQ(names_in(dir / "elsewhere"), std::vector<std::string>{"empty"});
  // A top written another way ("./", a trailing slash) is still kept.
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt.2").ok());
  io::remove_emptied_dirs(Env::posix(), dir.path() + "/./prefix/", {top + "/ckpt.2/f"});
  EXPECT_TRUE(Env::posix().exists(top)) << "the top itself was removed";
  EXPECT_EQ(names_in(top), std::vector<std::string>{});
}

// A symlink planted in the tree is never reached through: the empty
// directory it points to, outside the tree, stays, even when a sibling of
// the link sorts between it and the directory behind it.
TEST(RemoveEmptiedDirs, NeverReachesThroughASymlink) {
  TempDir dir;
  std::string top = dir / "prefix";
  ASSERT_TRUE(io::make_dirs(Env::posix(), dir / "outside/sub").ok());
  ASSERT_TRUE(io::make_dirs(Env::posix(), top + "/ckpt-2").ok());
  ASSERT_EQ(::symlink((dir / "outside").c_str(), (top + "/ckpt").c_str()), 0);
  io::remove_emptied_dirs(Env::posix(), top, {top + "/ckpt/sub/f", top + "/ckpt-2/f"});
  EXPECT_EQ(names_in(dir / "outside"), std::vector<std::string>{"sub"});
  EXPECT_EQ(names_in(top), std::vector<std::string>{"ckpt"}) << "the real empty directory goes";
}

// --- write_file_atomic -------------------------------------------------------

TEST(WriteFileAtomic, CreatesAndReplaces) {
  TempDir dir;
  std::string p = dir / "meta";
  ASSERT_TRUE(io::write_file_atomic(Env::posix(), p, "first", 0640).ok());
  EXPECT_EQ(read_raw(p), "first");
  EXPECT_EQ(mode_of(p) & ~0640u, 0u);
  ASSERT_TRUE(io::write_file_atomic(Env::posix(), p, "").ok());
  EXPECT_EQ(read_raw(p), "");
  ASSERT_TRUE(io::write_file_atomic(Env::posix(), p, "second, longer").ok());
  EXPECT_EQ(read_raw(p), "second, longer");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"meta"}) << "temporary left behind";
}

// Records every mutating call in order, to check durability ordering that
// file contents alone cannot show.
class RecordingEnv final : public io::EnvWrapper {
 public:
  explicit RecordingEnv(Env& target) : EnvWrapper(target) {}
  std::vector<std::string> log;

  scr::Result<std::unique_ptr<io::File>> open(const std::string& p, OpenMode mode,
                                              uint32_t perms) override {
    if (mode != OpenMode::read) log.push_back("create " + p);
    SCR_ASSIGN_OR_RETURN(auto f, EnvWrapper::open(p, mode, perms));
    return std::unique_ptr<io::File>(std::make_unique<RecordingFile>(std::move(f), log));
  }
  scr::Status rename(const std::string& from, const std::string& to) override {
    log.push_back("rename " + from + " " + to);
    return EnvWrapper::rename(from, to);
  }
  scr::Status sync_dir(const std::string& p) override {
    log.push_back("syncdir " + p);
    return EnvWrapper::sync_dir(p);
  }

 private:
  class RecordingFile final : public io::File {
   public:
    RecordingFile(std::unique_ptr<io::File> f, std::vector<std::string>& log)
        : f_(std::move(f)), log_(log) {}
    scr::Result<size_t> pread(void* b, size_t n, uint64_t o) override { return f_->pread(b, n, o); }
    scr::Status pwrite(const void* b, size_t n, uint64_t o) override {
      log_.push_back("write " + path());
      return f_->pwrite(b, n, o);
    }
    scr::Status sync() override {
      log_.push_back("sync " + path());
      return f_->sync();
    }
    scr::Status close() override { return f_->close(); }
    scr::Result<uint64_t> size() override { return f_->size(); }
    const std::string& path() const override { return f_->path(); }

   private:
    std::unique_ptr<io::File> f_;
    std::vector<std::string>& log_;
  };
};

// The data reaches the disk before the rename makes it visible, and the
// rename is made durable by syncing the directory.
TEST(WriteFileAtomic, SyncsDataBeforeRenameAndDirectoryAfter) {
  TempDir dir;
  std::string p = dir / "meta";
  RecordingEnv env(Env::posix());
  ASSERT_TRUE(io::write_file_atomic(env, p, "content").ok());
  ASSERT_EQ(env.log.size(), 5u) << ::testing::PrintToString(env.log);
  const std::string tmp = env.log[0].substr(std::string("create ").size());
  EXPECT_NE(tmp, p) << "must write a temporary, not the file itself";
  EXPECT_EQ(io::path::dirname(tmp), dir.path()) << "temporary must be on the same file system";
  EXPECT_EQ(env.log, (std::vector<std::string>{"create " + tmp, "write " + tmp, "sync " + tmp,
                                               "rename " + tmp + " " + p, "syncdir " + dir.path()}));
}

TEST(CopyFile, SyncsBeforeRename) {
  TempDir dir;
  write_raw(dir / "src", "data");
  RecordingEnv env(Env::posix());
  ASSERT_TRUE(io::copy_file(env, dir / "src", dir / "dst").ok());
  ASSERT_GE(env.log.size(), 4u) << ::testing::PrintToString(env.log);
  const std::string tmp = env.log[0].substr(std::string("create ").size());
  auto at = [&](const std::string& what) {
    return std::find(env.log.begin(), env.log.end(), what) - env.log.begin();
  };
  EXPECT_LT(at("write " + tmp), at("sync " + tmp));
  EXPECT_LT(at("sync " + tmp), at("rename " + tmp + " " + dir / "dst"));
  EXPECT_EQ(env.log.back(), "syncdir " + dir.path()) << "the rename must be made durable";
  env.log.clear();
  io::CopyOptions nosync;
  nosync.fsync = false;
  ASSERT_TRUE(io::copy_file(env, dir / "src", dir / "dst2", nosync).ok());
  for (const auto& e : env.log) EXPECT_EQ(e.rfind("sync", 0), std::string::npos) << e;
}

TEST(WriteFileAtomic, ReplacesASymlinkInsteadOfWritingThroughIt) {
  TempDir dir;
  write_raw(dir / "victim", "keep");
  ASSERT_EQ(::symlink((dir / "victim").c_str(), (dir / "meta").c_str()), 0);
  ASSERT_TRUE(io::write_file_atomic(Env::posix(), dir / "meta", "new").ok());
  EXPECT_EQ(read_raw(dir / "victim"), "keep");
  auto info = Env::posix().stat(dir / "meta");
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->is_regular());
  EXPECT_EQ(read_raw(dir / "meta"), "new");
}

// Steps of one write_file_atomic through a FaultEnv, counted on a clean run.
int count_steps(const std::string& path) {
  FaultEnv env(Env::posix());
  EXPECT_TRUE(io::write_file_atomic(env, path, "probe").ok());
  return env.steps();
}

struct CrashCase {
  const char* name;
  bool old_exists;
  std::string old_content;
  std::string new_content;
};

// Crash at every step: the file is always exactly the old or the new content
// (or absent if there was none), a later write still works, and the crash
// itself never takes the process down.
TEST(WriteFileAtomic, CrashAtEveryStepLeavesOldOrNew) {
  const std::vector<CrashCase> cases = {
      {"replace", true, std::string(5000, 'o'), random_bytes(9000, 1)},
      {"create", false, "", random_bytes(300, 2)},
      {"shrink", true, random_bytes(7000, 3), "tiny"},
  };
  TempDir dir;
  const int steps = count_steps(dir / "probe");
  ASSERT_GE(steps, 4) << "create, write, fsync, rename at least";
  for (const auto& c : cases) {
    bool saw_old = false, saw_new_with_error = false;
    for (int n = 1; n <= steps + 1; ++n) {
      SCOPED_TRACE(std::string(c.name) + ", crash at step " + std::to_string(n));
      std::string p = dir / (std::string(c.name) + std::to_string(n));
      if (c.old_exists) write_raw(p, c.old_content);
      FaultEnv env(Env::posix());
      env.crash_at_step(n);
      scr::Status st = io::write_file_atomic(env, p, c.new_content);
      EXPECT_EQ(st.ok(), n > steps) << st.to_string();
      bool exists = Env::posix().exists(p);
      std::string now = exists ? read_raw(p) : "<absent>";
      bool is_old = c.old_exists ? (exists && now == c.old_content) : !exists;
      bool is_new = exists && now == c.new_content;
      EXPECT_TRUE(is_old || is_new) << "torn: " << now.size() << " bytes";
      saw_old |= is_old;
      saw_new_with_error |= is_new && !st.ok();
      // The next writer (a restarted process) succeeds over any leftovers.
      ASSERT_TRUE(io::write_file_atomic(Env::posix(), p, "after").ok());
      EXPECT_EQ(read_raw(p), "after");
    }
    EXPECT_TRUE(saw_old) << c.name << ": no crash point kept the old state";
    EXPECT_TRUE(saw_new_with_error) << c.name << ": a crash after the rename should keep the new state";
  }
}

TEST(WriteFileAtomic, NoSpaceNamesThePathAndKeepsOldContent) {
  TempDir dir;
  std::string p = dir / "meta";
  write_raw(p, "old");
  FaultEnv env(Env::posix());
  env.fail_write(1, ENOSPC);
  scr::Status st = io::write_file_atomic(env, p, "new content");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Errc::no_space);
  EXPECT_NE(st.message().find(p), std::string::npos) << st.message();
  EXPECT_EQ(read_raw(p), "old");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"meta"}) << "temporary left behind";
}

TEST(WriteFileAtomic, ShortWriteIsAnErrorAndKeepsOldContent) {
  TempDir dir;
  std::string p = dir / "meta";
  write_raw(p, "old");
  FaultEnv env(Env::posix());
  env.short_write(1);
  scr::Status st = io::write_file_atomic(env, p, "new content");
  EXPECT_EQ(st.code(), Errc::io_error);
  EXPECT_EQ(read_raw(p), "old");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"meta"});
}

TEST(WriteFileAtomic, MissingDirectoryFails) {
  TempDir dir;
  scr::Status st = io::write_file_atomic(Env::posix(), dir / "no/such/meta", "x");
  EXPECT_EQ(st.code(), Errc::not_found);
}

// --- read_file / trees --------------------------------------------------------

TEST(ReadFile, WholeFileAndLimit) {
  TempDir dir;
  std::string data = random_bytes(10000, 4);
  write_raw(dir / "f", data);
  auto all = io::read_file(Env::posix(), dir / "f");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, data);
  EXPECT_TRUE(io::read_file(Env::posix(), dir / "f", 10000).ok());
  auto big = io::read_file(Env::posix(), dir / "f", 9999);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), Errc::invalid_argument);
  EXPECT_NE(big.status().message().find(dir / "f"), std::string::npos);
  EXPECT_EQ(io::read_file(Env::posix(), dir / "none").status().code(), Errc::not_found);
  write_raw(dir / "empty", "");
  EXPECT_EQ(*io::read_file(Env::posix(), dir / "empty"), "");
}

Tree sample(int n) {
  Tree t;
  t.set_int("ID", n);
  t.child("FILE", 0).set("SIZE", std::to_string(n * 100));
  return t;
}

TEST(TreeFiles, WriteReadAndCorruption) {
  TempDir dir;
  std::string p = dir / "filemap";
  ASSERT_TRUE(io::write_tree(Env::posix(), p, sample(3)).ok());
  auto back = io::read_tree(Env::posix(), p);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, sample(3));
  std::string bytes = read_raw(p);
  bytes[bytes.size() - 2] ^= 0x10;
  write_raw(p, bytes);
  auto bad = io::read_tree(Env::posix(), p);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::corrupt);
  EXPECT_EQ(bad.status().message().rfind(p + ": ", 0), 0u) << bad.status().message();
  EXPECT_EQ(io::read_tree(Env::posix(), dir / "none").status().code(), Errc::not_found);
}

TEST(TreeFiles, ReadTreeAtOffsets) {
  TempDir dir;
  std::string p = dir / "redset";
  std::string t1 = scr::kv::encode(sample(1)), t2 = scr::kv::encode(sample(2));
  write_raw(p, "0123456789" + t1 + t2 + "DATA");
  auto f = Env::posix().open(p, OpenMode::read);
  ASSERT_TRUE(f.ok());
  uint64_t end = 0;
  auto a = io::read_tree_at(**f, 10, &end);
  ASSERT_TRUE(a.ok()) << a.status().to_string();
  EXPECT_EQ(*a, sample(1));
  EXPECT_EQ(end, 10 + t1.size());
  auto b = io::read_tree_at(**f, end, &end);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, sample(2));
  EXPECT_EQ(end, 10 + t1.size() + t2.size());
  EXPECT_TRUE(io::read_tree_at(**f, 10, nullptr).ok());
  auto junk = io::read_tree_at(**f, 0, &end);
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(junk.status().code(), Errc::corrupt);
  auto data = io::read_tree_at(**f, end, nullptr);  // "DATA": too short for a header
  EXPECT_EQ(data.status().code(), Errc::corrupt);
}

TEST(TreeFiles, ReadTreeAtTruncatedFile) {
  TempDir dir;
  std::string t = scr::kv::encode(sample(7));
  for (size_t cut : {size_t{0}, size_t{10}, scr::kv::kEnvelopeSize, t.size() - 1}) {
    std::string p = dir / ("cut" + std::to_string(cut));
    write_raw(p, t.substr(0, cut));
    auto f = Env::posix().open(p, OpenMode::read);
    ASSERT_TRUE(f.ok());
    auto r = io::read_tree_at(**f, 0, nullptr);
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_EQ(r.status().code(), Errc::corrupt);
    EXPECT_NE(r.status().message().find(p), std::string::npos) << r.status().message();
  }
}

// A File whose reads fail with EIO, to check errors are not mislabelled.
class FailingFile final : public io::File {
 public:
  scr::Result<size_t> pread(void*, size_t, uint64_t) override {
    return io::errno_status(EIO, "read", path_);
  }
  scr::Status pwrite(const void*, size_t, uint64_t) override { return scr::Status::Ok(); }
  scr::Status sync() override { return scr::Status::Ok(); }
  scr::Status close() override { return scr::Status::Ok(); }
  scr::Result<uint64_t> size() override { return uint64_t{4096}; }
  const std::string& path() const override { return path_; }

 private:
  std::string path_ = "/dev/failing";
};

TEST(TreeFiles, ReadTreeAtReportsIoErrorsAsSuch) {
  FailingFile f;
  auto r = io::read_tree_at(f, 0, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::io_error) << r.status().to_string();
  EXPECT_NE(r.status().message().find("/dev/failing"), std::string::npos);
}

// --- make_dirs ------------------------------------------------------------------

TEST(MakeDirs, CreatesAllComponents) {
  TempDir dir;
  mode_t old = ::umask(022);
  scr::Status st = io::make_dirs(Env::posix(), dir / "a/b/c");
  scr::Status again = io::make_dirs(Env::posix(), dir / "a/b/c/");
  scr::Status rel = io::make_dirs(Env::posix(), dir / "a/./x/../y");
  ::umask(old);
  ASSERT_TRUE(st.ok()) << st.to_string();
  EXPECT_TRUE(again.ok());
  EXPECT_TRUE(rel.ok());
  for (const char* d : {"a", "a/b", "a/b/c", "a/y"}) EXPECT_EQ(mode_of(dir / d), 0700u) << d;
  EXPECT_FALSE(Env::posix().exists(dir / "a/x"));
}

TEST(MakeDirs, FileInThePathIsRefused) {
  TempDir dir;
  write_raw(dir / "f", "x");
  scr::Status st = io::make_dirs(Env::posix(), dir / "f/sub");
  EXPECT_EQ(st.code(), Errc::permission);
  EXPECT_NE(st.message().find(dir / "f"), std::string::npos) << st.message();
}

TEST(MakeDirs, PrivateRefusesSymlinkPlantedAtTarget) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "attacker").c_str(), 0755), 0);
  ASSERT_EQ(::symlink((dir / "attacker").c_str(), (dir / "cache").c_str()), 0);
  for (bool priv : {true, false}) {
    scr::Status st = io::make_dirs(Env::posix(), dir / "cache", 0700, priv);
    EXPECT_EQ(st.code(), Errc::permission) << "private " << priv;
    EXPECT_NE(st.message().find("symbolic link"), std::string::npos) << st.message();
  }
  EXPECT_EQ(mode_of(dir / "attacker"), 0755u) << "mode changed through the link";
  // also below a planted link that is the last component of a longer path
  scr::Status st = io::make_dirs(Env::posix(), dir / "cache/", 0700, true);
  EXPECT_EQ(st.code(), Errc::permission);
}

// SCR++ never changes the mode of a directory it did not create: an existing
// private directory others can write is refused, its mode left as it was.
TEST(MakeDirs, PrivateRefusesAWritableDirectoryAndNeverChmods) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "cntl").c_str(), 0755), 0);
  ASSERT_EQ(::chmod((dir / "cntl").c_str(), 0777), 0);
  scr::Status st = io::make_dirs(Env::posix(), dir / "cntl", 0700, true);
  EXPECT_EQ(st.code(), Errc::permission);
  EXPECT_NE(st.message().find("0777"), std::string::npos) << st.message();
  EXPECT_EQ(mode_of(dir / "cntl"), 0777u);
  // readable by others but not writable: accepted as it is
  ASSERT_EQ(::mkdir((dir / "shared").c_str(), 0755), 0);
  ASSERT_TRUE(io::make_dirs(Env::posix(), dir / "shared", 0700, true).ok());
  EXPECT_EQ(mode_of(dir / "shared"), 0755u);
}

TEST(MakeDirsWithin, CreatesBelowTheBaseAndRefusesPlantedLinks) {
  TempDir dir;
  ASSERT_TRUE(io::make_dirs_within(Env::posix(), dir / "prefix", dir / "prefix/a/b", 0755).ok());
  EXPECT_TRUE(Env::posix().stat(dir / "prefix/a/b")->is_dir());
  // A link planted below the base is never followed, wherever it stands.
  ASSERT_EQ(::mkdir((dir / "elsewhere").c_str(), 0755), 0);
  ASSERT_EQ(::symlink((dir / "elsewhere").c_str(), (dir / "prefix/ckpt").c_str()), 0);
  for (const char* target : {"prefix/ckpt", "prefix/ckpt/sub", "prefix/ckpt/sub/deeper"}) {
    scr::Status st = io::make_dirs_within(Env::posix(), dir / "prefix", dir / target, 0755);
    EXPECT_EQ(st.code(), Errc::permission) << target;
    EXPECT_NE(st.message().find("symbolic link"), std::string::npos) << st.message();
  }
  EXPECT_FALSE(Env::posix().exists(dir / "elsewhere/sub"));
  // The base itself may be reached through a link (site paths).
  ASSERT_EQ(::symlink((dir / "prefix").c_str(), (dir / "linked").c_str()), 0);
  EXPECT_TRUE(io::make_dirs_within(Env::posix(), dir / "linked", dir / "linked/a/c", 0755).ok());
  // A path outside the base is refused.
  EXPECT_EQ(io::make_dirs_within(Env::posix(), dir / "prefix", dir / "other", 0755).code(),
            Errc::invalid_argument);
}

// What a refused directory must keep: its own metadata and its entries.
std::string dir_state(const std::string& dir) {
  struct stat st{};
  if (::lstat(dir.c_str(), &st) != 0) return "<missing>";
  std::string s = std::to_string(st.st_mode) + " " + std::to_string(st.st_uid) + " " +
                  std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
                  std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
  if (S_ISDIR(st.st_mode))
    for (const auto& name : names_in(dir)) s += " " + name;
  return s;
}

// <base>/<node>/<user>/scr.<job>: the per-user directory is checked before
// the job directory is made in it; the node directory above it is not ours
// to judge (it stands in for a node's shared storage).
TEST(MakeOwnDirsWithin, RefusesADirectoryBeforeMakingAnythingInIt) {
  TempDir dir;
  const std::string base = dir / "base";
  ASSERT_TRUE(io::make_dirs(Env::posix(), base + "/n0/user").ok());
  ASSERT_EQ(::chmod((base + "/n0/user").c_str(), 0777), 0);
  std::string before = dir_state(base + "/n0/user");
  scr::Status st = io::make_own_dirs_within(Env::posix(), base, base + "/n0/user", base + "/n0/user/scr.7", 0700, true);
  EXPECT_EQ(st.code(), Errc::permission);
  EXPECT_EQ(dir_state(base + "/n0/user"), before);

  // A link planted at the per-user directory: neither it nor its target changes.
  ASSERT_EQ(::mkdir((dir / "victim").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((base + "/n1").c_str(), 0755), 0);
  ASSERT_EQ(::symlink((dir / "victim").c_str(), (base + "/n1/user").c_str()), 0);
  std::string victim = dir_state(dir / "victim");
  st = io::make_own_dirs_within(Env::posix(), base, base + "/n1/user", base + "/n1/user/scr.7", 0700, true);
  EXPECT_EQ(st.code(), Errc::permission);
  EXPECT_EQ(dir_state(dir / "victim"), victim);

  // Made here: every level is ours and closed, so all are accepted.
  st = io::make_own_dirs_within(Env::posix(), base, base + "/n2/user", base + "/n2/user/scr.7", 0700, true);
  ASSERT_TRUE(st.ok()) << st.to_string();
  EXPECT_EQ(mode_of(base + "/n2/user/scr.7"), 0700u);
  // Directories above own_top are only required to be real directories.
  ASSERT_EQ(::chmod((base + "/n2").c_str(), 0777), 0);
  EXPECT_TRUE(io::make_own_dirs_within(Env::posix(), base, base + "/n2/user", base + "/n2/user/scr.8", 0700, true).ok());
  // Without closed_to_others an open directory is accepted, as it is.
  EXPECT_TRUE(io::make_own_dirs_within(Env::posix(), base, base + "/n0/user", base + "/n0/user", 0700, false).ok());
  EXPECT_EQ(mode_of(base + "/n0/user"), 0777u);
  // own_top must hold dir.
  EXPECT_EQ(io::make_own_dirs_within(Env::posix(), base, base + "/n2/user", base + "/n3", 0700, true).code(),
            Errc::invalid_argument);
}

TEST(MakeOwnDirsWithin, RefusesAnotherUsersDirectoryUnchanged) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a directory away";
  TempDir dir;
  const std::string base = dir / "base";
  ASSERT_TRUE(io::make_dirs(Env::posix(), base + "/user").ok());
  write_raw(base + "/user/theirs", "x");
  ASSERT_EQ(::chown((base + "/user").c_str(), 65534, 65534), 0);
  std::string before = dir_state(base + "/user");
  for (bool closed : {true, false}) {
    scr::Status st = io::make_own_dirs_within(Env::posix(), base, base + "/user", base + "/user/scr.7", 0700, closed);
    EXPECT_EQ(st.code(), Errc::permission) << st.to_string();
    EXPECT_NE(st.message().find("65534"), std::string::npos) << st.message();
  }
  EXPECT_EQ(dir_state(base + "/user"), before);
  // Another user's directory above own_top is fine.
  ASSERT_EQ(::mkdir((base + "/n0").c_str(), 0755), 0);
  ASSERT_EQ(::chown((base + "/n0").c_str(), 65534, 65534), 0);
  EXPECT_TRUE(io::make_own_dirs_within(Env::posix(), base, base + "/n0/user", base + "/n0/user/scr.7", 0700, true).ok());
}

TEST(MakeDirs, PrivateRefusesADirectoryOwnedBySomeoneElse) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a directory away";
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "theirs").c_str(), 0700), 0);
  ASSERT_EQ(::chown((dir / "theirs").c_str(), 4242, 4242), 0);
  scr::Status st = io::make_dirs(Env::posix(), dir / "theirs", 0700, true);
  EXPECT_EQ(st.code(), Errc::permission);
  EXPECT_NE(st.message().find("4242"), std::string::npos) << st.message();
}

// Only the final directory must be real: site paths such as /home -> /gpfs/home
// or a cache base reached through a link are normal.
TEST(MakeDirs, SymlinkedParentIsFollowed) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "real").c_str(), 0700), 0);
  ASSERT_EQ(::symlink((dir / "real").c_str(), (dir / "base").c_str()), 0);
  scr::Status st = io::make_dirs(Env::posix(), dir / "base/user/scr.7", 0700, true);
  ASSERT_TRUE(st.ok()) << st.to_string();
  auto info = Env::posix().stat(dir / "real/user/scr.7");
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->is_dir());
  EXPECT_EQ(mode_of(dir / "real/user/scr.7"), 0700u);
  // A link to a file in the middle still fails.
  write_raw(dir / "file", "x");
  ASSERT_EQ(::symlink((dir / "file").c_str(), (dir / "flink").c_str()), 0);
  EXPECT_FALSE(io::make_dirs(Env::posix(), dir / "flink/sub").ok());
}

// --- remove_tree / remove_file --------------------------------------------------

TEST(RemoveTree, DoesNotFollowSymlinks) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "outside").c_str(), 0700), 0);
  write_raw(dir / "outside/keep", "keep");
  ASSERT_TRUE(io::make_dirs(Env::posix(), dir / "victim/sub").ok());
  write_raw(dir / "victim/sub/f", "x");
  write_raw(dir / "victim/g", "y");
  ASSERT_EQ(::symlink((dir / "outside").c_str(), (dir / "victim/link").c_str()), 0);
  ASSERT_TRUE(io::remove_tree(Env::posix(), dir / "victim").ok());
  EXPECT_FALSE(Env::posix().exists(dir / "victim"));
  EXPECT_EQ(read_raw(dir / "outside/keep"), "keep");
  EXPECT_TRUE(io::remove_tree(Env::posix(), dir / "victim").ok());  // missing is fine
  write_raw(dir / "single", "z");
  EXPECT_TRUE(io::remove_tree(Env::posix(), dir / "single").ok());
  EXPECT_FALSE(Env::posix().exists(dir / "single"));
}

TEST(RemoveFile, MissingIsNotAnError) {
  TempDir dir;
  write_raw(dir / "f", "x");
  EXPECT_TRUE(io::remove_file(Env::posix(), dir / "f").ok());
  EXPECT_FALSE(Env::posix().exists(dir / "f"));
  EXPECT_TRUE(io::remove_file(Env::posix(), dir / "f").ok());
  ASSERT_EQ(::mkdir((dir / "d").c_str(), 0700), 0);
  EXPECT_FALSE(io::remove_file(Env::posix(), dir / "d").ok());
}

// --- copy_file / file_crc32c ----------------------------------------------------

TEST(CopyFile, StreamsInPiecesWithCrcAndMetadata) {
  TempDir dir;
  const std::string data = random_bytes(100003, 5);
  std::string src = dir / "src", dst = dir / "dst";
  write_raw(src, data);
  ASSERT_EQ(::chmod(src.c_str(), 0640), 0);
  io::FileInfo meta = *Env::posix().stat(src);
  meta.mtime = {1596606911, 918124338};
  meta.atime = {1596606000, 5};
  ASSERT_TRUE(Env::posix().set_meta(src, meta).ok());

  for (size_t piece : {size_t{1} << 20, size_t{4096}, size_t{1000}, size_t{7}}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    auto before = Env::posix().stat(src);  // reading src may move its atime
    ASSERT_TRUE(before.ok());
    uint32_t crc = 0;
    std::vector<uint64_t> progress;
    io::CopyOptions opt;
    opt.piece_size = piece;
    opt.crc32c = &crc;
    opt.progress = [&](uint64_t done) { progress.push_back(done); };
    auto n = io::copy_file(Env::posix(), src, dst, opt);
    ASSERT_TRUE(n.ok()) << n.status().to_string();
    EXPECT_EQ(*n, data.size());
    // Metadata first: reading dst below may update its atime.
    auto got = Env::posix().stat(dst);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->mode & 07777, 0640u);
    EXPECT_EQ(got->mtime.tv_sec, meta.mtime.tv_sec);
    EXPECT_EQ(got->mtime.tv_nsec, meta.mtime.tv_nsec);
    EXPECT_EQ(got->atime.tv_sec, before->atime.tv_sec);
    EXPECT_EQ(got->atime.tv_nsec, before->atime.tv_nsec);
    EXPECT_EQ(read_raw(dst), data);
    EXPECT_EQ(crc, scr::crc32c(data.data(), data.size()));
    auto fcrc = io::file_crc32c(Env::posix(), dst, 333);
    ASSERT_TRUE(fcrc.ok());
    EXPECT_EQ(crc, *fcrc);
    ASSERT_EQ(progress.size(), (data.size() + piece - 1) / piece) << "not streamed in pieces";
    EXPECT_EQ(progress.back(), data.size());
    for (size_t i = 1; i < progress.size(); ++i) EXPECT_LE(progress[i] - progress[i - 1], piece);
  }
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"dst", "src"}));
}

// The destination is created with the source's mode and only what differs
// is set afterwards: every mode must still come out exactly, a read-only
// one included, whether the destination is new or replaced.
TEST(CopyFile, KeepsEveryMode) {
  TempDir dir;
  write_raw(dir / "src", "abc");
  for (mode_t mode : {0400u, 0444u, 0600u, 0640u, 0755u, 0700u}) {
    SCOPED_TRACE(mode);
    ASSERT_EQ(::chmod((dir / "src").c_str(), mode), 0);
    io::CopyOptions opt;
    opt.fsync = false;
    ASSERT_TRUE(io::copy_file(Env::posix(), dir / "src", dir / "new", opt).ok());
    EXPECT_EQ(mode_of(dir / "new"), mode);
    ASSERT_TRUE(io::copy_file(Env::posix(), dir / "src", dir / "replaced", opt).ok());
    EXPECT_EQ(mode_of(dir / "replaced"), mode);
    ASSERT_EQ(::unlink((dir / "new").c_str()), 0);
  }
}

TEST(CopyFile, WithoutKeepMetaIsPrivate) {
  TempDir dir;
  write_raw(dir / "src", "abc");
  ASSERT_EQ(::chmod((dir / "src").c_str(), 0644), 0);
  io::CopyOptions opt;
  opt.keep_meta = false;
  opt.fsync = false;
  ASSERT_TRUE(io::copy_file(Env::posix(), dir / "src", dir / "dst", opt).ok());
  EXPECT_EQ(mode_of(dir / "dst"), 0600u);
  EXPECT_EQ(read_raw(dir / "dst"), "abc");
}

// The fetch describes each copy from what copy_file reports instead of a
// second stat by path: the report must be what a stat would say, for a new
// destination and a replaced one, with and without the source's metadata.
TEST(CopyFile, ReportsTheCopysOwnMetadata) {
  TempDir dir;
  write_raw(dir / "src", std::string(5000, 'x'));
  ASSERT_EQ(::chmod((dir / "src").c_str(), 0640), 0);
  for (bool keep : {true, false}) {
    for (bool replace : {false, true}) {
      SCOPED_TRACE(std::string(keep ? "keep" : "private") + (replace ? ", replaced" : ", new"));
      std::string dst = dir / "dst";
      if (replace) write_raw(dst, "older and shorter");
      io::FileInfo written;
      io::CopyOptions opt;
      opt.keep_meta = keep;
      opt.written_info = &written;
      ASSERT_TRUE(io::copy_file(Env::posix(), dir / "src", dst, opt).ok());
      auto got = Env::posix().stat(dst);
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(written.size, 5000u);
      EXPECT_EQ(written.size, got->size);
      EXPECT_EQ(written.mode, got->mode);
      EXPECT_EQ(written.uid, got->uid);
      EXPECT_EQ(written.gid, got->gid);
      EXPECT_EQ(written.mtime.tv_sec, got->mtime.tv_sec);
      EXPECT_EQ(written.mtime.tv_nsec, got->mtime.tv_nsec);
      EXPECT_EQ(written.atime.tv_sec, got->atime.tv_sec);
      EXPECT_EQ(written.atime.tv_nsec, got->atime.tv_nsec);
      ASSERT_EQ(::unlink(dst.c_str()), 0);
    }
  }
}

// A flush or a fetch copies through held directories: both ends are looked
// up from them (here after both were renamed, which a path would not find).
TEST(CopyFile, CopiesThroughHeldDirectories) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir / "from").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((dir / "to").c_str(), 0700), 0);
  write_raw(dir / "from/f", "payload");
  auto from = Env::posix().open_dir(dir / "from");
  auto to = Env::posix().open_dir(dir / "to");
  ASSERT_TRUE(from.ok() && to.ok());
  ASSERT_EQ(::rename((dir / "from").c_str(), (dir / "from2").c_str()), 0);
  ASSERT_EQ(::rename((dir / "to").c_str(), (dir / "to2").c_str()), 0);
  io::CopyOptions opt;
  opt.src_dir = from->get();
  opt.dst_dir = to->get();
  opt.sync_dir = false;
  auto n = io::copy_file(Env::posix(), dir / "from/f", dir / "to/f", opt);
  ASSERT_TRUE(n.ok()) << n.status().to_string();
  EXPECT_EQ(*n, 7u);
  EXPECT_EQ(read_raw(dir / "to2/f"), "payload");
}

TEST(CopyFile, EmptyFile) {
  TempDir dir;
  write_raw(dir / "src", "");
  uint32_t crc = 123;
  io::CopyOptions opt;
  opt.crc32c = &crc;
  auto n = io::copy_file(Env::posix(), dir / "src", dir / "dst", opt);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
  EXPECT_EQ(crc, 0u);
  EXPECT_TRUE(Env::posix().exists(dir / "dst"));
}

TEST(CopyFile, Errors) {
  TempDir dir;
  auto missing = io::copy_file(Env::posix(), dir / "none", dir / "dst");
  EXPECT_EQ(missing.status().code(), Errc::not_found);
  write_raw(dir / "src", random_bytes(50000, 6));
  write_raw(dir / "dst", "previous");
  FaultEnv env(Env::posix());
  env.fail_write(3, ENOSPC);
  io::CopyOptions opt;
  opt.piece_size = 4096;
  auto full = io::copy_file(env, dir / "src", dir / "dst", opt);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.status().code(), Errc::no_space);
  EXPECT_NE(full.status().message().find(dir / "dst"), std::string::npos);
  EXPECT_EQ(read_raw(dir / "dst"), "previous") << "a failed copy must not touch the destination";
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"dst", "src"}));
  io::CopyOptions zero;
  zero.piece_size = 0;
  auto z = io::copy_file(Env::posix(), dir / "src", dir / "dst", zero);
  EXPECT_EQ(z.status().code(), Errc::invalid_argument);
  EXPECT_EQ(read_raw(dir / "dst"), "previous");
}

TEST(FileCrc32c, IndependentOfPieceSize) {
  TempDir dir;
  const std::string data = random_bytes(70001, 7);
  write_raw(dir / "f", data);
  uint32_t want = scr::crc32c_reference(data.data(), data.size());
  for (size_t piece : {size_t{1}, size_t{3}, size_t{4096}, size_t{70001}, size_t{1} << 20}) {
    auto crc = io::file_crc32c(Env::posix(), dir / "f", piece);
    ASSERT_TRUE(crc.ok());
    EXPECT_EQ(*crc, want) << "piece " << piece;
  }
  auto zero = io::file_crc32c(Env::posix(), dir / "f", 0);
  EXPECT_EQ(zero.status().code(), Errc::invalid_argument) << "piece 0 must not yield a CRC";
  EXPECT_EQ(io::file_crc32c(Env::posix(), dir / "none").status().code(), Errc::not_found);
}

}  // namespace
