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
