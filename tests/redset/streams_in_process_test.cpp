// PARTNER's streams in one process (ranks as threads): bytes arrive whole,
// and a member that only sends waits for its receiver by sleeping at once,
// while members that also receive spin first (mpi/patience.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"
#include "redset/streams.hpp"

namespace {

using namespace scr;

constexpr size_t kPiece = 64 * 1024;
constexpr uint64_t kSize = 5 * kPiece + 123;  // six rounds, the last short

std::string bytes_of(int rank) {
  std::string s(kSize, '\0');
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>((i * 7 + static_cast<size_t>(rank) * 31) & 0xff);
  return s;
}

redset::OutStream out_to(int dest, const std::string& data) {
  return {{dest}, 0, data.size(), [&data](uint64_t off, size_t, uint8_t*, redset::ViewHold&) {
            return Result<const uint8_t*>(reinterpret_cast<const uint8_t*>(data.data()) + off);
          }};
}

redset::InStream in_from(int source, std::string& into) {
  into.assign(kSize, '\0');
  return {source, 0, kSize, [&into](uint64_t off, const uint8_t* buf, size_t n) {
            std::memcpy(into.data() + off, buf, n);
            return Status::Ok();
          }};
}

// Rank 0 only sends (to rank 1, which only receives), as a survivor hands a
// lost member its files; ranks 2 and 3 send to and receive from each other,
// as every member does in PARTNER's encode.
TEST(StreamsInProcess, OnlyAMemberThatOnlySendsSleepsAtOnce) {
  std::vector<uint64_t> sleeping(4);
  std::vector<std::string> got(4);
  mpi::InProcess(4).run([&](mpi::Comm& world) {
    int r = world.rank();
    std::string mine = bytes_of(r);
    std::vector<redset::OutStream> outs;
    std::vector<redset::InStream> ins;
    if (r == 0) outs.push_back(out_to(1, mine));
    if (r == 1) ins.push_back(in_from(0, got[1]));
    if (r >= 2) {
      outs.push_back(out_to(5 - r, mine));
      ins.push_back(in_from(5 - r, got[static_cast<size_t>(r)]));
    }
    uint64_t before = mpi::thread_traffic().sleeping_waits;
    ASSERT_TRUE(redset::run_streams(world, kPiece, outs, ins, mpi::Patience::spin_first).ok());
    sleeping[static_cast<size_t>(r)] = mpi::thread_traffic().sleeping_waits - before;
  });
  EXPECT_EQ(got[1], bytes_of(0));
  EXPECT_EQ(got[2], bytes_of(3));
  EXPECT_EQ(got[3], bytes_of(2));
  EXPECT_GT(sleeping[0], 0u) << "the member that only sends spun while its receiver wrote";
  EXPECT_EQ(sleeping[1], 0u);
  EXPECT_EQ(sleeping[2], 0u) << "a member that also receives is on the set's path";
  EXPECT_EQ(sleeping[3], 0u);
}

}  // namespace
