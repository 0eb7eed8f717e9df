// PosixEnv: the single place files are opened. Symlinks at the last component
// are refused, errors name the operation and path, metadata is restored.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <future>
#include <string>

#include "io/env.hpp"
#include "io/file_lock.hpp"
#include "temp_dir.hpp"

namespace {

using scr::Errc;
using scr::io::Env;
using scr::io::FileLock;
using scr::io::OpenMode;
using scr::testing::mode_of;
using scr::testing::read_raw;
using scr::testing::TempDir;
using scr::testing::write_raw;

TEST(PosixEnv, WriteReadRoundTrip) {
  TempDir dir;
  Env& env = Env::posix();
  std::string p = dir / "f";
  {
    auto f = env.open(p, OpenMode::create, 0640);
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    ASSERT_TRUE((*f)->pwrite("hello world", 11, 0).ok());
    ASSERT_TRUE((*f)->pwrite("W", 1, 6).ok());
    ASSERT_TRUE((*f)->sync().ok());
    EXPECT_EQ(*(*f)->size(), 11u);
    EXPECT_EQ((*f)->path(), p);
    ASSERT_TRUE((*f)->close().ok());
    EXPECT_TRUE((*f)->close().ok());  // second close is harmless
  }
  EXPECT_EQ(mode_of(p) & ~0640u, 0u) << "mode has bits beyond the requested 0640";
  EXPECT_EQ(read_raw(p), "hello World");
  auto f = env.open(p, OpenMode::read);
  ASSERT_TRUE(f.ok());
  char buf[16] = {};
  auto got = (*f)->pread(buf, sizeof buf, 6);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 5u);
  EXPECT_EQ(std::string(buf, 5), "World");
  EXPECT_EQ(*(*f)->pread(buf, 4, 11), 0u);  // end of file
  EXPECT_TRUE((*f)->pread_exact(buf, 11, 0).ok());
  auto st = (*f)->pread_exact(buf, 12, 0);
  EXPECT_EQ(st.code(), Errc::corrupt);
  EXPECT_NE(st.message().find(p), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("truncated"), std::string::npos) << st.message();
  // read-only handle cannot write
  EXPECT_FALSE((*f)->pwrite("x", 1, 0).ok());
}

TEST(PosixEnv, NewFilesDefaultToPrivateMode) {
  TempDir dir;
  mode_t old = ::umask(0);
  auto f = Env::posix().open(dir / "f", OpenMode::create, 0600);
  auto g = Env::posix().mkdir(dir / "d");
  ::umask(old);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(mode_of(dir / "f"), 0600u);
  EXPECT_EQ(mode_of(dir / "d"), 0700u);
}

TEST(PosixEnv, OpenModes) {
  TempDir dir;
  Env& env = Env::posix();
  auto missing = env.open(dir / "none", OpenMode::read);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Errc::not_found);
  EXPECT_NE(missing.status().message().find(dir / "none"), std::string::npos);
  EXPECT_FALSE(env.open(dir / "none", OpenMode::read_write).ok());
  write_raw(dir / "f", "abcdef");
  auto excl = env.open(dir / "f", OpenMode::create_excl, 0600);
  EXPECT_FALSE(excl.ok());
  EXPECT_EQ(read_raw(dir / "f"), "abcdef");
  {
    auto rw = env.open(dir / "f", OpenMode::read_write);
    ASSERT_TRUE(rw.ok());
    ASSERT_TRUE((*rw)->pwrite("X", 1, 0).ok());
  }
  EXPECT_EQ(read_raw(dir / "f"), "Xbcdef");  // read_write does not truncate
  { ASSERT_TRUE(env.open(dir / "f", OpenMode::create, 0600).ok()); }
  EXPECT_EQ(read_raw(dir / "f"), "");  // create truncates
  auto d = env.open(dir.path(), OpenMode::read);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Errc::invalid_argument);
}

TEST(PosixEnv, OpenRefusesToFollowSymlink) {
  TempDir dir;
  Env& env = Env::posix();
  write_raw(dir / "target", "secret");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "link").c_str()), 0);
  for (OpenMode m : {OpenMode::read, OpenMode::create, OpenMode::read_write}) {
    auto f = env.open(dir / "link", m, 0600);
    ASSERT_FALSE(f.ok()) << "mode " << static_cast<int>(m);
    EXPECT_EQ(f.status().code(), Errc::permission);
    EXPECT_NE(f.status().message().find("symbolic link"), std::string::npos)
        << f.status().message();
    EXPECT_NE(f.status().message().find(dir / "link"), std::string::npos);
  }
  EXPECT_EQ(read_raw(dir / "target"), "secret");  // create did not truncate through the link
  // A dangling link planted where we would create a file is refused too.
  ASSERT_EQ(::symlink((dir / "elsewhere").c_str(), (dir / "dangling").c_str()), 0);
  EXPECT_FALSE(env.open(dir / "dangling", OpenMode::create, 0600).ok());
  EXPECT_FALSE(env.exists(dir / "elsewhere"));
}

// A FIFO planted where a file is expected must be refused, not block forever
// waiting for a writer.
TEST(PosixEnv, OpenDoesNotBlockOnFifo) {
  TempDir dir;
  std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto pending = std::async(std::launch::async, [&] { return Env::posix().open(fifo, OpenMode::read); });
  if (pending.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    // Unblock the stuck open so the test can finish, then fail.
    int fd = ::open(fifo.c_str(), O_WRONLY);
    ADD_FAILURE() << "open of a FIFO blocked";
    pending.wait();
    if (fd >= 0) ::close(fd);
    return;
  }
  auto r = pending.get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::invalid_argument);
  EXPECT_NE(r.status().message().find("not a regular file"), std::string::npos);
}

TEST(PosixEnv, StatDoesNotFollowSymlinks) {
  TempDir dir;
  Env& env = Env::posix();
  write_raw(dir / "f", "12345");
  ASSERT_EQ(::symlink("f", (dir / "l").c_str()), 0);
  auto fi = env.stat(dir / "f");
  ASSERT_TRUE(fi.ok());
  EXPECT_TRUE(fi->is_regular());
  EXPECT_EQ(fi->size, 5u);
  EXPECT_EQ(fi->uid, ::geteuid());
  auto li = env.stat(dir / "l");
  ASSERT_TRUE(li.ok());
  EXPECT_TRUE(li->is_symlink());
  EXPECT_FALSE(li->is_regular());
  auto di = env.stat(dir.path());
  ASSERT_TRUE(di.ok());
  EXPECT_TRUE(di->is_dir());
  EXPECT_TRUE(env.exists(dir / "l"));
  EXPECT_FALSE(env.exists(dir / "nope"));
  EXPECT_EQ(env.stat(dir / "nope").status().code(), Errc::not_found);
}

TEST(PosixEnv, DirectoryOperations) {
  TempDir dir;
  Env& env = Env::posix();
  ASSERT_TRUE(env.mkdir(dir / "d", 0700).ok());
  EXPECT_FALSE(env.mkdir(dir / "d", 0700).ok());
  for (const char* n : {"c", "a", "b"}) write_raw(dir / ("d/" + std::string(n)), n);
  ASSERT_TRUE(env.mkdir(dir / "d/sub", 0700).ok());
  auto names = env.list_dir(dir / "d");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b", "c", "sub"}));
  ASSERT_EQ(::symlink((dir / "d").c_str(), (dir / "dl").c_str()), 0);
  EXPECT_FALSE(env.list_dir(dir / "dl").ok()) << "list_dir followed a symlink";
  EXPECT_FALSE(env.rmdir(dir / "d").ok());  // not empty
  ASSERT_TRUE(env.rename(dir / "d/a", dir / "d/z").ok());
  EXPECT_EQ(read_raw(dir / "d/z"), "a");
  auto bad = env.rename(dir / "d/none", dir / "d/y");
  EXPECT_EQ(bad.code(), Errc::not_found);
  ASSERT_TRUE(env.unlink(dir / "d/z").ok());
  EXPECT_EQ(env.unlink(dir / "d/z").code(), Errc::not_found);
  ASSERT_TRUE(env.truncate(dir / "d/b", 3).ok());
  EXPECT_EQ(read_raw(dir / "d/b"), std::string("b\0\0", 3));
  EXPECT_TRUE(env.sync_dir(dir / "d").ok());
  EXPECT_FALSE(env.sync_dir(dir / "none").ok());
  EXPECT_TRUE(env.sync_fs(dir / "d").ok());
  EXPECT_EQ(env.sync_fs(dir / "none").code(), Errc::not_found);
  ASSERT_TRUE(env.rmdir(dir / "d/sub").ok());
  EXPECT_FALSE(env.exists(dir / "d/sub"));
}

TEST(PosixEnv, SetMetaRestoresModeAndTimes) {
  TempDir dir;
  Env& env = Env::posix();
  write_raw(dir / "f", "x");
  auto info = env.stat(dir / "f");
  ASSERT_TRUE(info.ok());
  scr::io::FileInfo want = *info;
  want.mode = (want.mode & ~07777u) | 0640;
  want.atime = {1596606911, 924124298};
  want.mtime = {1596606911, 918124338};
  ASSERT_TRUE(env.set_meta(dir / "f", want).ok());
  auto got = env.stat(dir / "f");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->mode & 07777, 0640u);
  EXPECT_EQ(got->mtime.tv_sec, 1596606911);
  EXPECT_EQ(got->mtime.tv_nsec, 918124338);
  EXPECT_EQ(got->atime.tv_sec, 1596606911);
  EXPECT_EQ(got->atime.tv_nsec, 924124298);
  EXPECT_EQ(got->uid, info->uid);
  EXPECT_FALSE(env.set_meta(dir / "none", want).ok());
}

// A directory held open resolves names below it with the same rules as a
// full path: files and stats by name (nested too), a symlink at the last
// component refused and seen as a link, errors and File::path() naming the
// full path.
TEST(PosixDir, OpensAndStatsNamesBelowItWithTheSameRules) {
  TempDir dir;
  Env& env = Env::posix();
  ASSERT_EQ(::mkdir((dir / "sub").c_str(), 0700), 0);
  write_raw(dir / "sub/f", "12345");
  write_raw(dir / "target", "secret");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "link").c_str()), 0);
  auto held = env.open_dir(dir.path());
  ASSERT_TRUE(held.ok()) << held.status().to_string();
  scr::io::Dir& d = **held;
  EXPECT_EQ(d.path(), dir.path());

  auto f = d.open("sub/f", OpenMode::read);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ((*f)->path(), dir / "sub/f");
  char buf[8] = {};
  EXPECT_EQ(*(*f)->pread(buf, sizeof buf, 0), 5u);
  EXPECT_EQ(std::string(buf, 5), "12345");
  EXPECT_EQ((*f)->info()->size, 5u);

  auto made = d.open("sub/new", OpenMode::create_excl, 0640);
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE((*made)->pwrite("abc", 3, 0).ok());
  ASSERT_TRUE((*made)->close().ok());
  EXPECT_EQ(read_raw(dir / "sub/new"), "abc");
  EXPECT_EQ(mode_of(dir / "sub/new"), 0640u);
  EXPECT_EQ(d.open("sub/new", OpenMode::create_excl).status().code(), Errc::io_error);  // exists

  for (OpenMode m : {OpenMode::read, OpenMode::create, OpenMode::read_write}) {
    auto l = d.open("link", m, 0600);
    ASSERT_FALSE(l.ok());
    EXPECT_EQ(l.status().code(), Errc::permission);
    EXPECT_NE(l.status().message().find(dir / "link"), std::string::npos) << l.status().message();
  }
  EXPECT_EQ(read_raw(dir / "target"), "secret");
  EXPECT_TRUE(d.stat("link")->is_symlink());
  EXPECT_EQ(d.stat("sub/f")->size, 5u);
  auto missing = d.stat("sub/none");
  EXPECT_EQ(missing.status().code(), Errc::not_found);
  EXPECT_NE(missing.status().message().find(dir / "sub/none"), std::string::npos);
}

// open_in and stat_in take the held directory only for paths plainly below
// it; anything else (another directory, "..", the directory itself) goes by
// its full path, and no directory at all is the same as before.
TEST(PosixDir, OpenInFallsBackToTheFullPathOutsideTheHeldDirectory) {
  TempDir dir;
  Env& env = Env::posix();
  ASSERT_EQ(::mkdir((dir / "a").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((dir / "ab").c_str(), 0700), 0);
  write_raw(dir / "a/f", "in a");
  write_raw(dir / "ab/f", "in ab");
  write_raw(dir / "top", "top");
  auto held = env.open_dir(dir / "a");
  ASSERT_TRUE(held.ok());
  auto content = [&](scr::io::Dir* d, const std::string& p) {
    auto f = scr::io::open_in(env, d, p, OpenMode::read);
    if (!f.ok()) return std::string("error");
    char buf[16] = {};
    size_t n = *(*f)->pread(buf, sizeof buf, 0);
    return std::string(buf, n);
  };
  for (scr::io::Dir* d : {held->get(), static_cast<scr::io::Dir*>(nullptr)}) {
    EXPECT_EQ(content(d, dir / "a/f"), "in a");
    EXPECT_EQ(content(d, dir / "ab/f"), "in ab");  // a name sharing the prefix, not below
    EXPECT_EQ(content(d, dir / "a/../top"), "top");
    EXPECT_EQ(content(d, dir / "top"), "top");
    EXPECT_EQ(scr::io::stat_in(env, d, dir / "ab/f")->size, 5u);
    EXPECT_TRUE(scr::io::stat_in(env, d, dir / "a")->is_dir());
  }
  // An empty component right after the held directory (or a held path ending
  // in '/') must not turn the rest into an absolute name looked up from the
  // root: "a//etc/x" is a/etc/x, never /etc/x.
  ASSERT_EQ(::mkdir((dir / "a/etc").c_str(), 0700), 0);
  write_raw(dir / "a/etc/hostname", "mine");
  auto slashed = env.open_dir(dir / "a/");
  ASSERT_TRUE(slashed.ok());
  for (scr::io::Dir* d : {held->get(), slashed->get()}) {
    EXPECT_EQ(content(d, dir / "a//etc/hostname"), "mine");
    EXPECT_EQ(content(d, dir / "a/./etc/hostname"), "mine");
    EXPECT_EQ(scr::io::stat_in(env, d, dir / "a//etc/hostname")->size, 4u);
  }
  EXPECT_EQ((*held)->open("/etc/hostname", OpenMode::read).status().code(), Errc::invalid_argument);
  EXPECT_EQ((*held)->stat("/etc/hostname").status().code(), Errc::invalid_argument);
  EXPECT_EQ((*held)->open("", OpenMode::read).status().code(), Errc::invalid_argument);

  // A directory that is itself a symlink is not held: callers use full paths.
  ASSERT_EQ(::symlink((dir / "a").c_str(), (dir / "alias").c_str()), 0);
  EXPECT_FALSE(env.open_dir(dir / "alias").ok());
  EXPECT_EQ(scr::io::held_dir(env, dir / "alias"), nullptr);
  EXPECT_EQ(scr::io::held_dir(env, dir / "none"), nullptr);
}

// An Env that only forwards (as the tests' fault injection does) holds a
// directory by its path. Held by an empty path, it must leave full paths as
// they are: an absolute one kept its leading '/' only by chance before.
TEST(PathDir, AnEmptyDirectoryPathLeavesFullPathsAlone) {
  TempDir dir;
  scr::io::EnvWrapper env(Env::posix());
  write_raw(dir / "f", "abs");
  auto held = env.open_dir("");
  ASSERT_TRUE(held.ok());
  auto f = scr::io::open_in(env, held->get(), dir / "f", OpenMode::read);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ((*f)->path(), dir / "f");
  EXPECT_EQ(scr::io::stat_in(env, held->get(), dir / "f")->size, 3u);
}

// Names below a held directory are looked up from the directory itself, not
// from its path: after the directory is renamed, they are still found
// through it, and by full path no longer.
TEST(PosixDir, LooksNamesUpFromTheDirectoryItself) {
  TempDir dir;
  Env& env = Env::posix();
  ASSERT_EQ(::mkdir((dir / "ds").c_str(), 0700), 0);
  write_raw(dir / "ds/f", "abc");
  auto held = env.open_dir(dir / "ds");
  ASSERT_TRUE(held.ok());
  ASSERT_EQ(::rename((dir / "ds").c_str(), (dir / "moved").c_str()), 0);
  auto f = scr::io::open_in(env, held->get(), dir / "ds/f", OpenMode::read);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  EXPECT_EQ((*f)->path(), dir / "ds/f");
  EXPECT_EQ(scr::io::stat_in(env, held->get(), dir / "ds/f")->size, 3u);
  EXPECT_EQ(scr::io::open_in(env, nullptr, dir / "ds/f", OpenMode::read).status().code(), Errc::not_found);
}

TEST(ErrnoStatus, MapsCodesAndNamesPath) {
  struct Case {
    int err;
    Errc code;
  } cases[] = {{ENOSPC, Errc::no_space}, {EDQUOT, Errc::no_space},  {ENOENT, Errc::not_found},
               {ENOTDIR, Errc::not_found}, {EACCES, Errc::permission}, {EPERM, Errc::permission},
               {ELOOP, Errc::permission},  {EIO, Errc::io_error},      {EEXIST, Errc::io_error}};
  for (const auto& c : cases) {
    auto st = scr::io::errno_status(c.err, "write", "/x/y");
    EXPECT_EQ(st.code(), c.code) << "errno " << c.err;
    EXPECT_EQ(st.message().rfind("write /x/y: ", 0), 0u) << st.message();
  }
}


// One holder at a time (flock is per open file, so even within one process);
// a second try names the first holder and is told apart from an error; the
// lock goes with its owner.
TEST(PosixEnv, LockIsExclusiveAndNamesItsHolder) {
  TempDir dir;
  Env& env = Env::posix();
  std::string p = dir / "lock";
  {
    auto first = FileLock::try_acquire(env, p, "job 7 (host n0, pid 12)");
    ASSERT_TRUE(first.ok()) << first.status().to_string();
    EXPECT_EQ(mode_of(p) & 0777u, 0600u);
    auto second = FileLock::try_acquire(env, p, "job 8");
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), Errc::bad_state);
    EXPECT_NE(second.status().message().find("job 7 (host n0, pid 12)"), std::string::npos)
        << second.status().message();
  }
  auto again = FileLock::try_acquire(env, p, "");
  EXPECT_TRUE(again.ok()) << again.status().to_string();
}

// A lock file planted as a symlink in a shared directory is never followed.
TEST(PosixEnv, LockNeverFollowsASymlink) {
  TempDir dir;
  write_raw(dir / "target", "keep");
  ASSERT_EQ(::symlink((dir / "target").c_str(), (dir / "lock").c_str()), 0);
  auto held = FileLock::acquire(Env::posix(), dir / "lock");
  EXPECT_FALSE(held.ok());
  EXPECT_EQ(read_raw(dir / "target"), "keep");
}
}  // namespace
