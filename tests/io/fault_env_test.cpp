// FaultEnv: the test double every crash-safety test relies on, so it gets
// tested itself.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cerrno>
#include <string>

#include "io/fault_env.hpp"
#include "io/file_lock.hpp"
#include "temp_dir.hpp"

namespace {

using scr::Errc;
using scr::io::Env;
using scr::io::FaultEnv;
using scr::io::FileLock;
using scr::io::OpenMode;
using scr::testing::read_raw;
using scr::testing::TempDir;

TEST(FaultEnv, PassesThroughWhenDisarmed) {
  TempDir dir;
  FaultEnv env(Env::posix());
  auto f = env.open(dir / "f", OpenMode::create, 0600);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->pwrite("abc", 3, 0).ok());
  EXPECT_TRUE((*f)->sync().ok());
  EXPECT_TRUE((*f)->close().ok());
  EXPECT_EQ(read_raw(dir / "f"), "abc");
  EXPECT_EQ(env.writes(), 1);
  EXPECT_EQ(env.steps(), 3);  // create, write, fsync
  EXPECT_FALSE(env.crashed());
}

// A directory held open through a FaultEnv still goes through it by full
// path: files opened from it count as the FaultEnv's steps and writes, and
// its faults apply (code that holds directories stays testable).
TEST(FaultEnv, DirectoriesHeldOpenStillGoThroughIt) {
  TempDir dir;
  FaultEnv env(Env::posix());
  auto held = env.open_dir(dir.path());
  ASSERT_TRUE(held.ok());
  auto f = (*held)->open("f", OpenMode::create, 0600);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->path(), dir / "f");
  EXPECT_TRUE((*f)->pwrite("abc", 3, 0).ok());
  EXPECT_EQ(env.writes(), 1);
  env.fail_write(1, ENOSPC);
  auto g = scr::io::open_in(env, held->get(), dir / "g", OpenMode::create, 0600);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)->pwrite("x", 1, 0).code(), Errc::no_space);
}

TEST(FaultEnv, FailsTheNthWrite) {
  TempDir dir;
  FaultEnv env(Env::posix());
  env.fail_write(2, ENOSPC);
  auto f = env.open(dir / "f", OpenMode::create, 0600);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->pwrite("aa", 2, 0).ok());
  auto st = (*f)->pwrite("bb", 2, 2);
  EXPECT_EQ(st.code(), Errc::no_space);
  EXPECT_NE(st.message().find(dir / "f"), std::string::npos) << st.message();
  EXPECT_TRUE((*f)->pwrite("cc", 2, 4).ok());  // only the N-th fails
  (void)(*f)->close();
  EXPECT_EQ(read_raw(dir / "f"), std::string("aa\0\0cc", 6));
}

TEST(FaultEnv, ShortWriteLetsHalfThrough) {
  TempDir dir;
  FaultEnv env(Env::posix());
  env.short_write(1);
  auto f = env.open(dir / "f", OpenMode::create, 0600);
  ASSERT_TRUE(f.ok());
  auto st = (*f)->pwrite("abcdefgh", 8, 0);
  EXPECT_EQ(st.code(), Errc::io_error);
  (void)(*f)->close();
  EXPECT_EQ(read_raw(dir / "f"), "abcd");
}

TEST(FaultEnv, CrashDropsThatStepAndEveryLaterOne) {
  TempDir dir;
  FaultEnv env(Env::posix());
  env.crash_at_step(3);
  ASSERT_TRUE(env.mkdir(dir / "d", 0700).ok());  // step 1
  auto f = env.open(dir / "d/f", OpenMode::create, 0600);  // step 2
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE((*f)->pwrite("x", 1, 0).ok());  // step 3: crash
  EXPECT_TRUE(env.crashed());
  EXPECT_FALSE((*f)->sync().ok());
  EXPECT_FALSE(env.rename(dir / "d/f", dir / "d/g").ok());
  EXPECT_FALSE(env.unlink(dir / "d/f").ok());
  EXPECT_FALSE(env.mkdir(dir / "e", 0700).ok());
  EXPECT_FALSE(env.rmdir(dir / "d").ok());
  EXPECT_FALSE(env.truncate(dir / "d/f", 0).ok());
  EXPECT_FALSE(env.sync_dir(dir / "d").ok());
  EXPECT_FALSE(env.open(dir / "d/h", OpenMode::create, 0600).ok());
  EXPECT_FALSE(env.exists(dir / "d/h"));
  EXPECT_FALSE(env.exists(dir / "e"));
  EXPECT_TRUE(env.exists(dir / "d/f"));  // nothing was undone
  EXPECT_EQ(read_raw(dir / "d/f"), "");
  // Reads keep working after the crash.
  auto r = env.open(dir / "d/f", OpenMode::read, 0600);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(env.list_dir(dir / "d").ok());
  auto st = env.rename(dir / "d/f", dir / "d/g");
  EXPECT_NE(st.message().find("crashed"), std::string::npos) << st.message();
}

// "write:PATTERN:N:ERR" counts only writes to paths containing PATTERN and
// fails each from the N-th on: a test can fill up one simulated node's cache
// and no other file.
TEST(FaultEnv, FailsTheNthWriteToMatchingPaths) {
  TempDir dir;
  FaultEnv env(Env::posix());
  ASSERT_TRUE(env.configure("write:/n4/:2:ENOSPC").ok());
  ASSERT_EQ(::mkdir((dir / "n4").c_str(), 0700), 0);
  auto other = env.open(dir / "other", OpenMode::create, 0600);
  auto spare = env.open(dir / "n4/f", OpenMode::create, 0600);
  ASSERT_TRUE(other.ok() && spare.ok());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE((*other)->pwrite("o", 1, i).ok());
  EXPECT_TRUE((*spare)->pwrite("a", 1, 0).ok());
  EXPECT_EQ((*spare)->pwrite("b", 1, 1).code(), Errc::no_space);
  EXPECT_EQ((*spare)->pwrite("c", 1, 2).code(), Errc::no_space);  // still full
  EXPECT_TRUE((*other)->pwrite("o", 1, 3).ok());
  for (const char* bad : {"write:/n4/:0:ENOSPC", "write:/n4/:1:EPERM", "write:/n4/:x:EIO"}) {
    auto st = env.configure(bad);
    EXPECT_EQ(st.code(), Errc::invalid_argument) << "'" << bad << "'";
  }
}

// "crash:PATTERN:N" crashes at the N-th step on a path containing PATTERN
// (a crash in the middle of one phase): steps elsewhere pass until then,
// and every step fails after.
TEST(FaultEnv, CrashesAtTheNthStepOnMatchingPaths) {
  TempDir dir;
  FaultEnv env(Env::posix());
  ASSERT_TRUE(env.configure("crash:/ckpt.2/:2").ok());
  ASSERT_EQ(::mkdir((dir / "ckpt.2").c_str(), 0700), 0);
  EXPECT_TRUE(env.open(dir / "other", OpenMode::create, 0600).ok());
  auto first = env.open(dir / "ckpt.2/a", OpenMode::create, 0600);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(env.open(dir / "other2", OpenMode::create, 0600).ok());
  EXPECT_FALSE(env.crashed());
  EXPECT_FALSE((*first)->pwrite("x", 1, 0).ok());  // 2nd step on ckpt.2/: crash
  EXPECT_TRUE(env.crashed());
  EXPECT_FALSE(env.open(dir / "other3", OpenMode::create, 0600).ok());
  EXPECT_EQ(FaultEnv(Env::posix()).configure("crash:/ckpt.2/:0").code(), Errc::invalid_argument);
}

// Taking a lock is a step like any other: a crash there fails it, before
// the lock file exists, and a run that takes locks stays reachable by the
// fault plans of every test.
TEST(FaultEnv, LocksAreSteps) {
  TempDir dir;
  FaultEnv env(Env::posix());
  {
    auto held = FileLock::acquire(env, dir / "a.lock");
    ASSERT_TRUE(held.ok()) << held.status().to_string();
  }
  EXPECT_EQ(env.steps(), 1);
  env.crash_at_step(1, "b.lock");
  auto refused = FileLock::try_acquire(env, dir / "b.lock", "job 7");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Errc::io_error);
  EXPECT_TRUE(env.crashed());
  struct stat st {};
  EXPECT_NE(::stat((dir / "b.lock").c_str(), &st), 0);
}

TEST(FaultEnv, ConfigureParsesSpecs) {
  TempDir dir;
  FaultEnv env(Env::posix());
  ASSERT_TRUE(env.configure("write:1:EIO").ok());
  auto f = env.open(dir / "f", OpenMode::create, 0600);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->pwrite("a", 1, 0).code(), Errc::io_error);
  ASSERT_TRUE(env.configure("write:2:ENOSPC").ok());  // counting starts again when armed
  EXPECT_TRUE((*f)->pwrite("a", 1, 0).ok());
  EXPECT_EQ((*f)->pwrite("a", 1, 0).code(), Errc::no_space);
  for (const char* good : {"short:3", "crash:1", "write:5:EIO"})
    EXPECT_TRUE(env.configure(good).ok()) << good;
  for (const char* bad : {"", "write", "write:1", "write:0:EIO", "write:-1:EIO", "write:1:EPERM",
                          "short", "short:x", "short:1:2", "crash:0", "crash:", "boom:1",
                          "crash:1:EIO"}) {
    auto st = env.configure(bad);
    EXPECT_EQ(st.code(), Errc::invalid_argument) << "'" << bad << "'";
    EXPECT_NE(st.message().find("SCR_FAULT_INJECT"), std::string::npos);
  }
}

}  // namespace
