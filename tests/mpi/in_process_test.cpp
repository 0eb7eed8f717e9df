// The in-process communicators (mpi/in_process.hpp): ranks as threads, with
// MPI's matching rules, contexts, collectives and failure reporting. Plain
// unit test: no mpirun, no MPI_Init.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "kvtree/tree.hpp"
#include "mpi/comm.hpp"
#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"
#include "mpi/requests.hpp"

namespace {

using scr::Errc;
using scr::Status;
using scr::kv::Tree;
namespace mpi = scr::mpi;

std::string text(int from, int n) { return std::to_string(from) + ":" + std::to_string(n); }

TEST(InProcess, EveryRankRunsWithItsOwnWorld) {
  mpi::InProcess job(4);
  std::vector<int> seen(4, -1);
  std::atomic<int> sizes{0};
  job.run([&](mpi::Comm& world) {
    seen[static_cast<size_t>(world.rank())] = world.rank();
    sizes += world.size();
    world.barrier();
  });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(sizes.load(), 16);
}

// Messages from one source with one tag arrive in the order sent; a receive
// for another tag takes the first message with that tag, whatever came first.
TEST(InProcess, MatchesBySourceAndTagInOrder) {
  mpi::InProcess job(2);
  job.run([](mpi::Comm& world) {
    if (world.rank() == 0) {
      for (int i = 0; i < 3; ++i) {
        Tree t;
        t.set_int("I", i);
        mpi::send_tree(world, t, 1, 5);
      }
      Tree other;
      other.set_int("I", 99);
      mpi::send_tree(world, other, 1, 6);
      return;
    }
    EXPECT_EQ(mpi::recv_tree(world, 0, 6).int_or("I", -1), 99);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(mpi::recv_tree(world, 0, 5).int_or("I", -1), i);
  });
}

// Receives posted before the sends, pieces waited for one by one and as
// ranges, as the ring and gather pipelines do.
TEST(InProcess, RequestSlotsCarryARingOfPieces) {
  mpi::InProcess job(3);
  job.run([](mpi::Comm& world) {
    int r = world.rank(), n = world.size();
    int right = (r + 1) % n, left = (r + n - 1) % n;
    constexpr size_t kSteps = 5;
    std::vector<std::string> out, in(kSteps, std::string(16, '\0'));
    for (size_t s = 0; s < kSteps; ++s) out.push_back(text(r, static_cast<int>(s)));
    mpi::Requests sends(kSteps), recvs(kSteps);
    for (size_t s = 0; s < kSteps; ++s) recvs.irecv(s, world, in[s].data(), 16, left, 7);
    for (size_t s = 0; s < kSteps; ++s)
      sends.isend(s, world, out[s].data(), static_cast<int>(out[s].size()), right, 7);
    recvs.wait(0);
    recvs.wait(1, 2);
    recvs.wait_all();
    sends.wait_all();
    for (size_t s = 0; s < kSteps; ++s)
      EXPECT_EQ(in[s].substr(0, in[s].find('\0')), text(left, static_cast<int>(s)));
  });
}

TEST(InProcess, SendrecvSkipsTheNullPeer) {
  mpi::InProcess job(3);
  job.run([](mpi::Comm& world) {
    int r = world.rank(), n = world.size();
    int64_t value = 1000 + r, got = -1;
    Status st = mpi::sendrecv(world, &value, int{sizeof value}, r == 0 ? n - 1 : mpi::kNoPeer,
                              &got, int{sizeof got}, r == n - 1 ? 0 : mpi::kNoPeer, 3);
    EXPECT_TRUE(st.ok()) << st.to_string();
    EXPECT_EQ(got, r == n - 1 ? 1000 : -1);
    // A message longer than the buffer is an error, as MPI's truncation is.
    std::string big(32, 'x'), small(8, '\0');
    int right = (r + 1) % n, left = (r + n - 1) % n;
    st = mpi::sendrecv(world, big.data(), 32, right, small.data(), 8, left, 4);
    EXPECT_EQ(st.code(), Errc::mpi_error);
  });
}

// A split is a communicator of its own: the same tag on the parent and on the
// child never match each other, and ranks follow the key.
TEST(InProcess, SplitsHaveTheirOwnContextsAndRanks) {
  mpi::InProcess job(4);
  job.run([](mpi::Comm& world) {
    int r = world.rank();
    mpi::Comm half = world.split(r % 2, -r);  // reversed order inside each half
    ASSERT_EQ(half.size(), 2);
    EXPECT_EQ(half.rank(), r < 2 ? 1 : 0);
    mpi::Comm copy = world.duplicate();
    int partner = 1 - half.rank();
    // World first, then the half, then the copy, all with tag 9, all to the
    // same peers: each receive must take the message of its communicator.
    int world_peer = r ^ 2;  // the world rank of the half partner
    Tree on_world, on_half, on_copy;
    on_world.set("VIA", "world");
    on_half.set("VIA", "half");
    on_copy.set("VIA", "copy");
    mpi::send_tree(world, on_world, world_peer, 9);
    mpi::send_tree(half, on_half, partner, 9);
    mpi::send_tree(copy, on_copy, world_peer, 9);
    EXPECT_EQ(mpi::recv_tree(copy, world_peer, 9).value_or("VIA", ""), "copy");
    EXPECT_EQ(mpi::recv_tree(half, partner, 9).value_or("VIA", ""), "half");
    EXPECT_EQ(mpi::recv_tree(world, world_peer, 9).value_or("VIA", ""), "world");
    // Left out with a negative color.
    mpi::Comm none = world.split(r == 0 ? -1 : 0, r);
    EXPECT_EQ(none.valid(), r != 0);
    if (none.valid()) {
      EXPECT_EQ(none.size(), 3);
    }
  });
}

TEST(InProcess, CollectivesAgreeOnEveryRank) {
  mpi::InProcess job(4);
  job.run([](mpi::Comm& world) {
    int r = world.rank(), n = world.size();
    EXPECT_EQ(mpi::allgather_ints(world, 10 * r), (std::vector<int>{0, 10, 20, 30}));
    auto strings = mpi::allgather_strings(world, std::string(static_cast<size_t>(r), 'a'));
    for (int k = 0; k < n; ++k) EXPECT_EQ(strings[static_cast<size_t>(k)].size(), size_t(k));
    auto pairs = mpi::allgather_pairs(world, {uint64_t(r), uint64_t{1} << 40});
    EXPECT_EQ(pairs[3][0], 3u);
    EXPECT_EQ(pairs[2][1], uint64_t{1} << 40);
    EXPECT_EQ(mpi::sum(world, int64_t{r}), 6);
    EXPECT_EQ(mpi::max(world, int64_t{r}), 3);
    EXPECT_EQ(mpi::min(world, int64_t{r} - 5), -5);
    EXPECT_DOUBLE_EQ(mpi::max(world, 0.5 * r), 1.5);
    EXPECT_EQ(mpi::min_without_spinning(world, 100 - r), 97);
    EXPECT_FALSE(mpi::all_true(world, r != 2));
    EXPECT_TRUE(mpi::all_true(world, true));
    EXPECT_TRUE(mpi::any_true(world, r == 2));
    EXPECT_FALSE(mpi::any_true(world, false));
    int v = r == 3 ? 42 : -1;
    mpi::bcast_int(world, v, 3);
    EXPECT_EQ(v, 42);
    Tree t;
    if (r == 1) t.set("FROM", "one");
    mpi::bcast_tree(world, t, 1);
    EXPECT_EQ(t.value_or("FROM", ""), "one");
  });
}

TEST(InProcess, TreeHelpersOverThePrimitives) {
  mpi::InProcess job(4);
  job.run([](mpi::Comm& world) {
    int r = world.rank(), n = world.size();
    // Everyone sends to the next two ranks, so hears from the two before.
    std::map<int, Tree> send;
    for (int d : {(r + 1) % n, (r + 2) % n}) {
      Tree t;
      t.set_int("FROM", r);
      send[d] = t;
    }
    auto got = mpi::exchange_trees(world, send);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got.at((r + n - 1) % n).int_or("FROM", -1), (r + n - 1) % n);
    // To and from one rank along a tree: every rank's tree at rank 2, and
    // rank 1's trees out to every rank.
    Tree from_me;
    from_me.set_int("FROM", r);
    auto at_two = mpi::gather_trees(world, from_me, 2);
    ASSERT_EQ(at_two.size(), r == 2 ? size_t(n) : 0u);
    for (const auto& [k, t] : at_two) EXPECT_EQ(t.int_or("FROM", -1), k);
    std::vector<Tree> out(r == 1 ? size_t(n) : 0u);
    for (size_t k = 0; k < out.size(); ++k) out[k].set_int("TO", int(k));
    EXPECT_EQ(mpi::scatter_trees(world, out, 1).int_or("TO", -1), r);
    Tree mine;
    mine.set_int("FROM", r);
    Tree left = mpi::sendrecv_tree(world, mine, (r + 1) % n, (r + n - 1) % n, 11);
    EXPECT_EQ(left.int_or("FROM", -1), (r + n - 1) % n);
    int group = -1, groups = -1;
    mpi::Comm node = mpi::split_by_string(world, r < 2 ? "node-b" : "node-a", &group, &groups);
    EXPECT_EQ(groups, 2);
    EXPECT_EQ(group, r < 2 ? 1 : 0);
    EXPECT_EQ(node.rank(), r % 2);
    Status st = mpi::agree(world, r == 2 ? scr::Error(Errc::io_error, "disk gone") : Status::Ok());
    EXPECT_EQ(st.code(), Errc::io_error);
    EXPECT_EQ(st.message(), "rank 2: disk gone");
    EXPECT_TRUE(mpi::agree(world, Status::Ok()).ok());
  });
}

// The collectives run on trees: at sizes that are not powers of two, with
// roots other than 0, every rank gets what MPI would give it.
TEST(InProcess, TreeCollectivesAtOddSizesAndRoots) {
  for (int n : {1, 5, 13}) {
    mpi::InProcess job(n);
    job.run([n](mpi::Comm& world) {
      int r = world.rank();
      int root = n / 2;
      auto gathered = world.impl().gather_strings(text(r, r), root);
      if (r == root) {
        ASSERT_EQ(gathered.size(), size_t(n));
        for (int k = 0; k < n; ++k) EXPECT_EQ(gathered[size_t(k)], text(k, k));
      } else {
        EXPECT_TRUE(gathered.empty());
      }
      std::vector<std::string> parts;
      if (r == root)
        for (int k = 0; k < n; ++k) parts.push_back(std::string(size_t(k), 'x') + text(k, 0));
      EXPECT_EQ(world.impl().scatter_strings(parts, root), std::string(size_t(r), 'x') + text(r, 0));
      std::string s = r == root ? "from the root" : "";
      mpi::bcast_string(world, s, root);
      EXPECT_EQ(s, "from the root");
      EXPECT_EQ(mpi::sum(world, int64_t{r}), int64_t{n} * (n - 1) / 2);
      auto all = mpi::allgather_strings(world, text(r, n));
      ASSERT_EQ(all.size(), size_t(n));
      for (int k = 0; k < n; ++k) EXPECT_EQ(all[size_t(k)], text(k, n));
      // Thirds, ranked backwards, with rank 1 left out.
      mpi::Comm third = world.split(r == 1 ? -1 : r % 3, -r);
      EXPECT_EQ(third.valid(), r != 1);
      if (third.valid()) {
        int members = 0, above = 0;
        for (int k = 0; k < n; ++k)
          if (k != 1 && k % 3 == r % 3) {
            ++members;
            above += k > r;
          }
        EXPECT_EQ(third.size(), members);
        EXPECT_EQ(third.rank(), above);
        EXPECT_EQ(mpi::sum(third, int64_t{1}), members);
      }
    });
  }
}

// What a rank sends for a collective grows with the logarithm of the job's
// size, as under MPI: a job of thousands of ranks costs each a few dozen
// messages, not thousands (every rank sending to every other).
TEST(InProcess, CollectivesCostEachRankLogarithmicallyManyMessages) {
  constexpr int kRanks = 1024;  // log2: 10
  mpi::InProcess job(kRanks);
  std::vector<uint64_t> sent(kRanks);
  job.run([&](mpi::Comm& world) {
    int r = world.rank();
    world.barrier();
    (void)mpi::max(world, int64_t{r});
    std::string s = r == 0 ? "x" : "";
    mpi::bcast_string(world, s, 0);
    mpi::Comm half = world.split(r % 2, r);
    mpi::Comm node = mpi::split_by_string(world, "node" + std::to_string(r / 16));
    std::map<int, Tree> send{{(r + 1) % kRanks, Tree()}};
    EXPECT_EQ(mpi::exchange_trees(world, send).count((r + kRanks - 1) % kRanks), 1u);
    EXPECT_EQ(mpi::gather_trees(world, Tree(), 0).size(), r == 0 ? size_t(kRanks) : 0u);
    (void)mpi::scatter_trees(world, std::vector<Tree>(r == 0 ? kRanks : 0), 0);
    sent[size_t(r)] = mpi::thread_traffic().messages;
  });
  // Each of 10 collective steps (split_by_string and exchange_trees are two
  // or three) may cost a rank two messages per level of a tree of 10 levels.
  for (int r = 0; r < kRanks; ++r) EXPECT_LE(sent[size_t(r)], 14u * 2 * 10 + 1) << "rank " << r;
}

// A receive its rank gave up (unwinding from an aborted run, its buffer
// going with it) is withdrawn: a later send leaves that buffer alone and
// waits for the next receive instead.
TEST(InProcess, AWithdrawnReceiveIsNeverFilled) {
  mpi::Fabric fabric(2);
  char abandoned[4] = {'-', '-', '-', '-'};
  mpi::PostedReceive r;
  r.data = abandoned;
  r.capacity = sizeof abandoned;
  r.source = 1;
  r.tag = 3;
  auto posted = fabric.post(0, 0, r);
  fabric.withdraw(*posted);
  fabric.send(0, 1, 0, 3, "late", 4);
  EXPECT_EQ(std::string(abandoned, 4), "----");
  EXPECT_FALSE(posted->done);
  char next[4] = {};
  r.data = next;
  auto again = fabric.post(0, 0, r);
  EXPECT_TRUE(again->done);
  EXPECT_EQ(std::string(next, 4), "late");
}

// A rank that throws ends the others' waits; run() names it.
TEST(InProcess, AFailingRankIsReportedAndReleasesTheOthers) {
  mpi::InProcess job(3);
  try {
    job.run([](mpi::Comm& world) {
      if (world.rank() == 1) throw std::runtime_error("rank one broke");
      (void)mpi::recv_tree(world, 1, 1);  // never sent
    });
    FAIL() << "run() returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1: rank one broke"), std::string::npos) << e.what();
  }
}

TEST(InProcess, WaitingForMessagesNobodySendsFailsInsteadOfHanging) {
  mpi::InProcess job(2);
  EXPECT_THROW(job.run([](mpi::Comm& world) {
                 if (world.rank() == 0) world.barrier();  // rank 1 never joins
               }),
               std::runtime_error);
  EXPECT_THROW(job.run([](mpi::Comm& world) { (void)mpi::recv_tree(world, 1 - world.rank(), 2); }),
               std::runtime_error);
}

// Each rank thread speaks as a process of its own: a warning given once by
// one rank is still given by the others, and ranks do not share a rank number.
TEST(InProcess, RanksHaveTheirOwnLogSpeaker) {
  mpi::InProcess job(2);
  testing::internal::CaptureStderr();
  job.run([](mpi::Comm& world) {
    scr::log::set_rank(world.rank());
    world.barrier();
    scr::log::warn_once("the same warning");
    scr::log::warn_once("the same warning");
  });
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("rank 0: the same warning"), std::string::npos) << err;
  EXPECT_NE(err.find("rank 1: the same warning"), std::string::npos) << err;
  size_t times = 0;
  for (size_t at = err.find("the same warning"); at != std::string::npos;
       at = err.find("the same warning", at + 1))
    ++times;
  EXPECT_EQ(times, 2u) << err;
}

}  // namespace
