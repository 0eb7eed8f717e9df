// Reading pieces in place: io::File::view / io::LogicalFile::view (mmap) and
// redset's view_or_read, which falls back on copies across files, into the
// padding, for small pieces, and for files that cannot be mapped.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/lofi.hpp"
#include "redset/pending.hpp"
#include "redset/views.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

class ViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("scr_views_test." + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::mt19937 rng(5);
    for (size_t size : {size_t{200} << 10, size_t{0}, size_t{100} << 10}) {
      std::string path = dir_ + "/f" + std::to_string(parts_.size());
      std::string bytes(size, '\0');
      for (auto& c : bytes) c = static_cast<char>(rng());
      std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(size));
      parts_.push_back({path, size});
      all_ += bytes;
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  io::LogicalFile open(io::Env& env) {
    auto lf = io::LogicalFile::open_read(env, parts_);
    EXPECT_TRUE(lf.ok());
    return std::move(*lf);
  }
  std::string expected(uint64_t offset, size_t n) const {
    std::string out = offset < all_.size() ? all_.substr(offset, n) : "";
    out.resize(n, '\0');  // the logical file is zero-padded
    return out;
  }

  std::string dir_;
  std::vector<io::LogicalFile::Part> parts_;
  std::string all_;
};

TEST_F(ViewsTest, LogicalFileViewsOnlyRangesInsideOneFile) {
  io::LogicalFile lf = open(io::Env::posix());
  auto inside = lf.view(4096 + 3, 128 << 10);
  ASSERT_TRUE(inside.ok()) << inside.status().to_string();
  EXPECT_EQ(expected(4096 + 3, 128 << 10),
            std::string(reinterpret_cast<const char*>((*inside)->data()), (*inside)->size()));
  auto third = lf.view(200 << 10, 64 << 10);  // starts the file after the empty one
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(expected(200 << 10, 64 << 10),
            std::string(reinterpret_cast<const char*>((*third)->data()), (*third)->size()));
  EXPECT_EQ(Errc::unsupported, lf.view((200 << 10) - 10, 64 << 10).status().code());
  EXPECT_EQ(Errc::unsupported, lf.view((300 << 10) - 10, 64 << 10).status().code());
}

TEST_F(ViewsTest, ViewOrReadGivesTheSameBytesEitherWay) {
  io::FaultEnv faulty(io::Env::posix());  // views pass through fault injection
  for (io::Env* env : {&io::Env::posix(), static_cast<io::Env*>(&faulty)}) {
    io::LogicalFile lf = open(*env);
    struct Case {
      uint64_t offset;
      size_t n;
      bool in_place;
    };
    for (Case c : {Case{0, 64 << 10, true}, Case{100, 1000, false},
                   Case{(200 << 10) - 100, 64 << 10, false}, Case{(280 << 10), 64 << 10, false}}) {
      std::vector<uint8_t> copy(c.n);
      redset::ViewHold hold;
      auto got = redset::view_or_read(lf, c.offset, c.n, copy.data(), hold);
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(c.in_place, *got != copy.data()) << c.offset;
      EXPECT_EQ(c.in_place, hold != nullptr) << c.offset;
      EXPECT_EQ(expected(c.offset, c.n), std::string(reinterpret_cast<const char*>(*got), c.n));
    }
  }
}

TEST_F(ViewsTest, ViewPastTheEndIsAnErrorNotACrash) {
  auto file = io::Env::posix().open(parts_[2].path, io::OpenMode::read);
  ASSERT_TRUE(file.ok());
  auto past = (*file)->view(90 << 10, 64 << 10);
  EXPECT_EQ(Errc::corrupt, past.status().code());
  std::vector<uint8_t> copy(64 << 10);
  redset::ViewHold hold;
  EXPECT_FALSE(redset::view_or_read(**file, 90 << 10, 64 << 10, copy.data(), hold).ok());
}

}  // namespace

namespace {

// Counts the calls that make files durable.
class SyncCounter final : public scr::io::EnvWrapper {
 public:
  explicit SyncCounter(scr::io::Env& target) : EnvWrapper(target) {}
  std::vector<std::string> log;
  scr::Result<std::unique_ptr<scr::io::File>> open(const std::string& p, scr::io::OpenMode mode,
                                                  uint32_t perms) override {
    SCR_ASSIGN_OR_RETURN(auto f, EnvWrapper::open(p, mode, perms));
    return std::unique_ptr<scr::io::File>(std::make_unique<File>(std::move(f), log));
  }
  scr::Status rename(const std::string& from, const std::string& to) override {
    log.push_back("rename " + to);
    return EnvWrapper::rename(from, to);
  }
  scr::Status sync_fs(const std::string& p) override {
    log.push_back("syncfs " + p);
    return EnvWrapper::sync_fs(p);
  }

 private:
  class File final : public scr::io::File {
   public:
    File(std::unique_ptr<scr::io::File> f, std::vector<std::string>& log) : f_(std::move(f)), log_(log) {}
    scr::Result<size_t> pread(void* b, size_t n, uint64_t o) override { return f_->pread(b, n, o); }
    scr::Status pwrite(const void* b, size_t n, uint64_t o) override { return f_->pwrite(b, n, o); }
    scr::Status sync() override {
      log_.push_back("fsync " + path());
      return f_->sync();
    }
    scr::Status close() override { return f_->close(); }
    scr::Result<uint64_t> size() override { return f_->size(); }
    const std::string& path() const override { return f_->path(); }
    scr::Result<scr::io::FileInfo> info() override { return f_->info(); }
    scr::Status set_meta(const scr::io::FileInfo& m) override { return f_->set_meta(m); }

   private:
    std::unique_ptr<scr::io::File> f_;
    std::vector<std::string>& log_;
  };
};

// A lost member's files (more than a logical file keeps open at once) are
// made durable by one syncfs at commit, not by an fsync each; a file that
// replaces one already there is durable before its rename, and the rename
// after it.
TEST(PendingFiles, RebuiltFilesAreMadeDurableTogether) {
  std::string dir = fs::temp_directory_path() / ("scr_pending_test." + std::to_string(::getpid()));
  fs::create_directories(dir + "/d");
  for (bool replace : {false, true}) {
    SCOPED_TRACE(replace ? "one file replaced" : "every file new");
    if (replace) std::ofstream(dir + "/d/f3") << "older";
    SyncCounter env(io::Env::posix());
    std::vector<redset::FileEntry> files;
    for (int i = 0; i < 100; ++i) {
      redset::FileEntry f;
      f.name = "d/f" + std::to_string(i);
      f.meta = *io::Env::posix().stat(dir);
      f.meta.mode = S_IFREG | 0600;
      f.meta.size = 3;
      files.push_back(f);
    }
    auto pending = redset::PendingFiles::create(env, dir, files, dir + "/red.scr");
    ASSERT_TRUE(pending.ok()) << pending.status().to_string();
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(pending->logical().write_pad(3 * i, "abc", 3).ok());
    ASSERT_TRUE(pending->commit().ok());
    std::vector<std::string> want{"syncfs " + dir};
    if (replace) want = {"syncfs " + dir, "rename " + dir + "/d/f3", "syncfs " + dir};
    EXPECT_EQ(env.log, want);
    std::string got;
    std::ifstream(dir + "/d/f3") >> got;
    EXPECT_EQ(got, "abc");
    fs::remove_all(dir + "/d");
    fs::create_directories(dir + "/d");
  }
  fs::remove_all(dir);
}

// A lost member's files that cannot be placed (a plain file stands where
// one of their directories must go): create() fails naming the path, and
// nothing is left behind, neither a crash nor a file.
TEST(PendingFiles, APathThatCannotBeMadeFailsCreate) {
  std::string dir = fs::temp_directory_path() / ("scr_pending_test_dir." + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir + "/d") << "a file, not a directory";
  std::vector<redset::FileEntry> files(2);
  files[0].name = "a/f0";
  files[1].name = "d/f1";
  for (auto& f : files) f.meta.mode = S_IFREG | 0600;
  {
    auto pending = redset::PendingFiles::create(io::Env::posix(), dir, files, dir + "/red.scr");
    ASSERT_FALSE(pending.ok());
    EXPECT_NE(pending.status().message().find(dir + "/d"), std::string::npos) << pending.status().message();
  }
  EXPECT_FALSE(fs::exists(dir + "/a/f0"));
  fs::remove_all(dir);
}

}  // namespace
