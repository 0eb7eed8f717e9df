// The MPI layer's message helpers used by the redundancy pipelines and file
// transfers: request slots, byte swaps, small collectives and error mapping.
// Run at 3 and 4 ranks with comm_test.cpp; every collective is called by all
// ranks before any check.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "mpi/error.hpp"
#include "mpi/mpi_comm.hpp"
#include "mpi/requests.hpp"
#include "mpi/tags.hpp"

namespace {

using scr::Errc;
using scr::Status;
namespace mpi = scr::mpi;

std::vector<uint8_t> piece(int from, int step, size_t len) {
  std::vector<uint8_t> p(len);
  for (size_t i = 0; i < len; ++i) p[i] = static_cast<uint8_t>(from * 31 + step * 7 + i);
  return p;
}

TEST(World, IsTheWholeJob) {
  ASSERT_TRUE(mpi::initialized());
  int r = -1, n = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  EXPECT_EQ(mpi::world().rank(), r);
  EXPECT_EQ(mpi::world().size(), n);
  mpi::Comm copy = mpi::world().duplicate();
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(mpi::raw(copy), MPI_COMM_WORLD, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);
}

// Pieces go round the ring in flight together, in slots waited for one by
// one and as ranges, as the ring and gather pipelines do.
TEST(Requests, RingOfPiecesInSlots) {
  auto w = mpi::world();
  int r = w.rank(), n = w.size();
  int right = (r + 1) % n, left = (r + n - 1) % n;
  constexpr size_t kSteps = 6, kLen = 3000;
  std::vector<std::vector<uint8_t>> out, in(kSteps, std::vector<uint8_t>(kLen));
  out.reserve(kSteps);
  mpi::Requests sends(kSteps), recvs(kSteps);
  EXPECT_EQ(sends.size(), kSteps);
  for (size_t s = 0; s < kSteps; ++s)
    recvs.irecv(s, w, in[s].data(), int{kLen}, left, mpi::tags::kRing);
  for (size_t s = 0; s < kSteps; ++s) {
    out.push_back(piece(r, static_cast<int>(s), kLen));
    sends.isend(s, w, out.back().data(), int{kLen}, right, mpi::tags::kRing);
  }
  recvs.wait(0);
  recvs.wait(1, 3);
  recvs.wait_all();
  sends.wait_all();
  for (size_t s = 0; s < kSteps; ++s)
    EXPECT_EQ(in[s], piece(left, static_cast<int>(s), kLen)) << "step " << s;
  // Waited-for slots are free again; a moved-from set has none.
  sends.wait_all();
  mpi::Requests moved = std::move(sends);
  EXPECT_EQ(moved.size(), kSteps);
  moved.wait_all();
}

TEST(Sendrecv, SwapsBytesAndSkipsTheNullPeer) {
  auto w = mpi::world();
  int r = w.rank(), n = w.size();
  int right = (r + 1) % n, left = (r + n - 1) % n;
  std::string out = "from " + std::to_string(r), in(out.size() + 8, '\0');
  Status st = mpi::sendrecv(w, out.data(), static_cast<int>(out.size()), right, in.data(),
                            static_cast<int>(in.size()), left, mpi::tags::kFileHeader);
  EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_EQ(in.substr(0, in.find('\0')), "from " + std::to_string(left));
  // Rank 0 only sends, the last rank only receives; nobody else moves.
  long long value = 1000 + r, got = -1;
  st = mpi::sendrecv(w, &value, int{sizeof value}, r == 0 ? n - 1 : mpi::kNoPeer, &got,
                     int{sizeof got}, r == n - 1 ? 0 : mpi::kNoPeer, mpi::tags::kFileHeaderLength);
  EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_EQ(got, r == n - 1 ? 1000 : -1);
}

TEST(Collectives, AllgatherAndBcastInts) {
  auto w = mpi::world();
  int r = w.rank(), n = w.size();
  auto ints = mpi::allgather_ints(w, 10 * r);
  auto pairs = mpi::allgather_pairs(w, {uint64_t(r), (uint64_t{1} << 40) + uint64_t(r)});
  int v = r == n - 1 ? 42 : -1;
  mpi::bcast_int(w, v, n - 1);
  int lowest = mpi::min_without_spinning(w, 100 - r);
  ASSERT_EQ(ints.size(), static_cast<size_t>(n));
  ASSERT_EQ(pairs.size(), static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    EXPECT_EQ(ints[static_cast<size_t>(k)], 10 * k);
    EXPECT_EQ(pairs[static_cast<size_t>(k)][0], uint64_t(k));
    EXPECT_EQ(pairs[static_cast<size_t>(k)][1], (uint64_t{1} << 40) + uint64_t(k));
  }
  EXPECT_EQ(v, 42);
  EXPECT_EQ(lowest, 100 - (n - 1));
}

TEST(Collectives, BcastStatusCarriesCodeAndMessage) {
  auto w = mpi::world();
  int r = w.rank(), n = w.size();
  Status mine = r == 1 ? scr::Error(Errc::corrupt, "bad crc on rank 1") : Status::Ok();
  Status theirs = mpi::bcast_status(w, mine, 1);
  Status ok = mpi::bcast_status(w, r == 0 ? Status::Ok() : scr::Error(Errc::io_error, "x"), 0);
  EXPECT_EQ(theirs.code(), Errc::corrupt);
  EXPECT_EQ(theirs.message(), "bad crc on rank 1");
  EXPECT_TRUE(ok.ok()) << "from " << n << " ranks";
}

TEST(Errors, MpiCodesBecomeStatus) {
  EXPECT_TRUE(mpi::status_of(MPI_SUCCESS, "MPI_Send").ok());
  Status st = mpi::status_of(MPI_ERR_COUNT, "MPI_Send");
  EXPECT_EQ(st.code(), Errc::mpi_error);
  EXPECT_EQ(st.message().rfind("MPI_Send: ", 0), 0u) << st.message();
  EXPECT_GT(st.message().size(), std::string("MPI_Send: ").size());
}

}  // namespace
