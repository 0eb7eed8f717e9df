// LogicalFile: parts read and written as one stream, zero-padded past the end.
// Reads are checked against a flat reference buffer for every offset/length.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/crc32c.hpp"
#include "io/fault_env.hpp"
#include "io/lofi.hpp"
#include "temp_dir.hpp"

namespace {

using scr::Errc;
using scr::io::Env;
using scr::io::LogicalFile;
using scr::testing::read_raw;
using scr::testing::TempDir;
using scr::testing::write_raw;

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
  return s;
}

struct Layout {
  std::vector<LogicalFile::Part> parts;
  std::string logical;  // concatenated recorded bytes
};

// Parts with an empty file in the middle, one at the end, and physical files
// longer than their recorded size (only the recorded bytes belong to the stream).
Layout make_layout(const TempDir& dir) {
  Layout l;
  const std::vector<std::pair<size_t, size_t>> sizes = {
      {10, 10}, {0, 0}, {7, 12}, {0, 0}, {0, 3}, {5, 5}, {0, 0}};
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string p = dir / ("part" + std::to_string(i));
    std::string content = random_bytes(sizes[i].second, static_cast<uint32_t>(i + 1));
    write_raw(p, content);
    l.parts.push_back({p, sizes[i].first});
    l.logical += content.substr(0, sizes[i].first);
  }
  return l;
}

TEST(LogicalFile, ReadPadEveryOffsetAndLength) {
  TempDir dir;
  Layout l = make_layout(dir);
  auto lf = LogicalFile::open_read(Env::posix(), l.parts);
  ASSERT_TRUE(lf.ok()) << lf.status().to_string();
  ASSERT_EQ(lf->size(), l.logical.size());
  ASSERT_EQ(lf->size(), 22u);
  const size_t span = l.logical.size() + 9;
  std::string reference = l.logical + std::string(2 * span, '\0');
  for (size_t off = 0; off <= span; ++off) {
    for (size_t n = 0; n <= span; ++n) {
      std::string buf(n, '#');
      auto st = lf->read_pad(off, buf.data(), n);
      ASSERT_TRUE(st.ok()) << st.to_string();
      ASSERT_EQ(buf, reference.substr(off, n)) << "offset " << off << " length " << n;
    }
  }
}

TEST(LogicalFile, ReadEntirelyInPadding) {
  TempDir dir;
  Layout l = make_layout(dir);
  auto lf = LogicalFile::open_read(Env::posix(), l.parts);
  ASSERT_TRUE(lf.ok());
  std::string buf(4096, '#');
  ASSERT_TRUE(lf->read_pad(1ull << 40, buf.data(), buf.size()).ok());
  EXPECT_EQ(buf, std::string(4096, '\0'));
  buf.assign(100, '#');
  ASSERT_TRUE(lf->read_pad(lf->size(), buf.data(), buf.size()).ok());
  EXPECT_EQ(buf, std::string(100, '\0'));
}

TEST(LogicalFile, NoPartsIsAllPadding) {
  auto lf = LogicalFile::open_read(Env::posix(), {});
  ASSERT_TRUE(lf.ok());
  EXPECT_EQ(lf->size(), 0u);
  std::string buf(10, '#');
  ASSERT_TRUE(lf->read_pad(0, buf.data(), buf.size()).ok());
  EXPECT_EQ(buf, std::string(10, '\0'));
  EXPECT_TRUE(lf->write_pad(0, "abc", 3).ok());
  EXPECT_TRUE(lf->close().ok());
}

TEST(LogicalFile, TruncatedPhysicalFileIsReported) {
  TempDir dir;
  Layout l = make_layout(dir);
  write_raw(l.parts[2].path, "short");  // recorded 7 bytes, now 5
  auto lf = LogicalFile::open_read(Env::posix(), l.parts);
  ASSERT_FALSE(lf.ok());
  EXPECT_EQ(lf.status().code(), Errc::corrupt);
  EXPECT_NE(lf.status().message().find(l.parts[2].path), std::string::npos) << lf.status().message();
  TempDir fresh;
  auto missing = make_layout(fresh).parts;
  missing[5].path = fresh / "gone";
  EXPECT_EQ(LogicalFile::open_read(Env::posix(), missing).status().code(), Errc::not_found);
}

TEST(LogicalFile, TruncatedAfterOpenIsReportedOnRead) {
  TempDir dir;
  Layout l = make_layout(dir);
  auto lf = LogicalFile::open_read(Env::posix(), l.parts);
  ASSERT_TRUE(lf.ok());
  ASSERT_TRUE(Env::posix().truncate(l.parts[5].path, 2).ok());
  std::string buf(30, '#');
  auto st = lf->read_pad(0, buf.data(), buf.size());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Errc::corrupt);
  EXPECT_NE(st.message().find(l.parts[5].path), std::string::npos) << st.message();
  // A read that stays before the damaged part still works.
  EXPECT_TRUE(lf->read_pad(0, buf.data(), 17).ok());
}

// Writing the whole padded stream in uneven chunks leaves each part holding
// exactly its recorded slice; padding bytes are dropped.
TEST(LogicalFile, WritePadDropsPadding) {
  TempDir dir;
  std::vector<LogicalFile::Part> parts = {
      {dir / "w0", 9}, {dir / "w1", 0}, {dir / "w2", 4}, {dir / "w3", 0}, {dir / "w4", 11}};
  const std::string logical = random_bytes(24, 99);
  const std::string padded = logical + random_bytes(40, 100);  // junk in the padding
  std::mt19937 rng(5);
  for (int round = 0; round < 20; ++round) {
    auto lf = LogicalFile::open_write(Env::posix(), parts, 0600);
    ASSERT_TRUE(lf.ok()) << lf.status().to_string();
    ASSERT_EQ(lf->size(), 24u);
    size_t off = 0;
    while (off < padded.size()) {
      size_t n = std::min<size_t>(1 + rng() % 13, padded.size() - off);
      ASSERT_TRUE(lf->write_pad(off, padded.data() + off, n).ok());
      off += n;
    }
    ASSERT_TRUE(lf->sync().ok());
    ASSERT_TRUE(lf->close().ok());
    size_t pos = 0;
    for (const auto& p : parts) {
      EXPECT_EQ(read_raw(p.path), logical.substr(pos, p.size)) << p.path << " round " << round;
      pos += p.size;
    }
  }
  // Read back through a LogicalFile.
  auto rd = LogicalFile::open_read(Env::posix(), parts);
  ASSERT_TRUE(rd.ok());
  std::string back(30, '#');
  ASSERT_TRUE(rd->read_pad(0, back.data(), back.size()).ok());
  EXPECT_EQ(back, logical + std::string(6, '\0'));
}

TEST(LogicalFile, WriteEntirelyInPaddingTouchesNothing) {
  TempDir dir;
  std::vector<LogicalFile::Part> parts = {{dir / "a", 3}, {dir / "b", 2}};
  auto lf = LogicalFile::open_write(Env::posix(), parts);
  ASSERT_TRUE(lf.ok());
  ASSERT_TRUE(lf->write_pad(5, "zzzzzz", 6).ok());
  ASSERT_TRUE(lf->write_pad(1000, "zzzzzz", 6).ok());
  ASSERT_TRUE(lf->write_pad(1, "XYZW", 4).ok());
  ASSERT_TRUE(lf->close().ok());
  EXPECT_EQ(read_raw(dir / "a"), std::string("\0XY", 3));
  EXPECT_EQ(read_raw(dir / "b"), "ZW");
}

TEST(LogicalFile, WriteErrorsPropagate) {
  TempDir dir;
  scr::io::FaultEnv env(Env::posix());
  env.fail_write(2, ENOSPC);
  std::vector<LogicalFile::Part> parts = {{dir / "a", 3}, {dir / "b", 3}};
  auto lf = LogicalFile::open_write(env, parts);
  ASSERT_TRUE(lf.ok());
  auto st = lf->write_pad(0, "abcdef", 6);  // second physical write fails
  EXPECT_EQ(st.code(), Errc::no_space);
  EXPECT_NE(st.message().find(dir / "b"), std::string::npos) << st.message();
}

// Descriptors this process has open right now.
size_t open_descriptors() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                                           std::filesystem::directory_iterator()));
}

// Many parts (a checkpoint of many small files) are streamed with a bounded
// number of them open: written, synced and read back byte for byte, while
// never more than kMaxOpenParts descriptors are added.
TEST(LogicalFile, ManyPartsKeepFewDescriptorsOpen) {
  TempDir dir;
  const size_t n = 5 * LogicalFile::kMaxOpenParts + 3;
  std::vector<LogicalFile::Part> parts;
  std::string logical;
  for (size_t i = 0; i < n; ++i) {
    size_t size = i % 7 == 3 ? 0 : 1 + i % 13;  // some empty parts among them
    parts.push_back({dir / ("f" + std::to_string(i)), size});
    logical += random_bytes(size, static_cast<uint32_t>(i + 100));
  }
  size_t before = open_descriptors();
  size_t peak = 0;
  {
    auto w = LogicalFile::open_write(Env::posix(), parts);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    // Odd-sized pieces, so writes cross part boundaries.
    for (size_t off = 0; off < logical.size(); off += 17) {
      size_t len = std::min<size_t>(17, logical.size() - off);
      ASSERT_TRUE(w->write_pad(off, logical.data() + off, len).ok());
      peak = std::max(peak, open_descriptors());
    }
    ASSERT_TRUE(w->sync().ok());
    ASSERT_TRUE(w->close().ok());
  }
  EXPECT_LE(peak, before + LogicalFile::kMaxOpenParts);
  EXPECT_EQ(open_descriptors(), before);
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(std::filesystem::exists(parts[i].path)) << parts[i].path;
  auto r = LogicalFile::open_read(Env::posix(), parts);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  std::string back(logical.size() + 5, '?');
  for (size_t off = 0; off < back.size(); off += 23) {
    size_t len = std::min<size_t>(23, back.size() - off);
    ASSERT_TRUE(r->read_pad(off, back.data() + off, len).ok());
    peak = std::max(peak, open_descriptors());
  }
  EXPECT_LE(peak, before + LogicalFile::kMaxOpenParts);
  EXPECT_EQ(back, logical + std::string(5, '\0'));
}

// Measured parts are checked when first read: a part that shrank since it
// was measured fails that read as truncated; the parts before it read fine.
TEST(LogicalFile, MeasuredPartsAreCheckedWhenRead) {
  TempDir dir;
  write_raw(dir / "a", "0123456789");
  write_raw(dir / "b", "abc");
  auto lf = LogicalFile::open_read_measured(Env::posix(), {{dir / "a", 10}, {dir / "b", 8}});
  ASSERT_TRUE(lf.ok());
  std::string buf(10, '?');
  ASSERT_TRUE(lf->read_pad(0, buf.data(), 10).ok());
  EXPECT_EQ(buf, "0123456789");
  EXPECT_EQ(lf->read_pad(10, buf.data(), 3).code(), Errc::corrupt);
  auto missing = LogicalFile::open_read_measured(Env::posix(), {{dir / "none", 4}});
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->read_pad(0, buf.data(), 4).ok());
  // Longer than measured: the extra bytes were never part of the stream.
  // The check holds for every later read too, whichever way it reads.
  auto grown = LogicalFile::open_read_measured(Env::posix(), {{dir / "a", 4}});
  ASSERT_TRUE(grown.ok());
  EXPECT_EQ(grown->view(0, 4).status().code(), Errc::corrupt);
  EXPECT_EQ(grown->read_pad(0, buf.data(), 4).code(), Errc::corrupt);
  EXPECT_EQ(grown->read_pad(0, buf.data(), 4).code(), Errc::corrupt);
  // Not a regular file any more: damaged too, not an error of another kind.
  std::filesystem::create_symlink(dir / "a", dir / "link");
  auto linked = LogicalFile::open_read_measured(Env::posix(), {{dir / "link", 10}});
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->read_pad(0, buf.data(), 4).code(), Errc::corrupt);
}

// The CRC32C of each part, taken from the bytes as they are read, is the
// CRC32C of the part's recorded bytes however the stream was read: in
// random pieces out of order, through views, with ranges read twice, or with
// parts never read at all.
TEST(LogicalFile, TrackedCrcsMatchEveryReadOrder) {
  TempDir dir;
  Layout l = make_layout(dir);
  std::vector<uint32_t> want;
  uint64_t at = 0;
  for (const auto& p : l.parts) {
    want.push_back(scr::crc32c(l.logical.data() + at, p.size));
    at += p.size;
  }
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    auto lf = LogicalFile::open_read(Env::posix(), l.parts);
    ASSERT_TRUE(lf.ok());
    lf->track_crcs();
    // Cut the stream into pieces, then read them in a shuffled order, some
    // twice, some (in every fourth trial) not at all, some through a view.
    std::vector<std::pair<uint64_t, size_t>> pieces;
    for (uint64_t off = 0; off < lf->size();) {
      size_t n = std::min<uint64_t>(1 + rng() % 9, lf->size() - off);
      pieces.push_back({off, n});
      off += n;
    }
    if (trial % 2) std::shuffle(pieces.begin(), pieces.end(), rng);
    if (trial % 3 == 0) pieces.push_back(pieces[rng() % pieces.size()]);
    if (trial % 4 == 0) pieces.erase(pieces.begin() + static_cast<long>(rng() % pieces.size()));
    std::string buf(16, '\0');
    for (auto [off, n] : pieces) {
      if (rng() % 3 == 0) {
        if (auto v = lf->view(off, n); v.ok()) {
          EXPECT_EQ(std::string(reinterpret_cast<const char*>((*v)->data()), n), l.logical.substr(off, n));
          continue;
        }
      }
      ASSERT_TRUE(lf->read_pad(off, buf.data(), n).ok());
      EXPECT_EQ(buf.substr(0, n), l.logical.substr(off, n));
    }
    auto crcs = lf->part_crcs(4);
    ASSERT_TRUE(crcs.ok()) << crcs.status().message();
    EXPECT_EQ(*crcs, want) << "trial " << trial;
  }
}

// Without tracking, part_crcs reads every part for its checksum.
TEST(LogicalFile, UntrackedCrcsAreRead) {
  TempDir dir;
  Layout l = make_layout(dir);
  auto lf = LogicalFile::open_read(Env::posix(), l.parts);
  ASSERT_TRUE(lf.ok());
  auto crcs = lf->part_crcs(3);
  ASSERT_TRUE(crcs.ok());
  ASSERT_EQ(crcs->size(), l.parts.size());
  EXPECT_EQ((*crcs)[0], scr::crc32c(l.logical.data(), 10));
  EXPECT_EQ((*crcs)[2], scr::crc32c(l.logical.data() + 10, 7));
  EXPECT_EQ((*crcs)[1], 0u);
}

}  // namespace
