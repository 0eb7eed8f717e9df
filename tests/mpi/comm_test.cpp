// MPI helpers, run at 3 and 4 ranks. Every collective is called by all ranks
// unconditionally; checks come after it, so one rank's failure cannot leave
// the others waiting in a collective.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kvtree/tree.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"

namespace {

using scr::Errc;
using scr::Status;
using scr::kv::Tree;
namespace mpi = scr::mpi;

mpi::Comm world() { return mpi::borrow(MPI_COMM_WORLD); }

Tree note(int from, int to, int round = 0) {
  Tree t;
  t.set_int("FROM", from);
  t.set_int("TO", to);
  t.set_int("ROUND", round);
  return t;
}

// World ranks of the members of `sub`, in sub-rank order.
std::vector<int> members(const mpi::Comm& sub) {
  std::vector<int> out(static_cast<size_t>(sub.size()));
  int me = world().rank();
  MPI_Allgather(&me, 1, MPI_INT, out.data(), 1, MPI_INT, mpi::raw(sub));
  return out;
}

TEST(Comm, RankSizeDupMove) {
  auto w = world();
  int r = -1, n = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  EXPECT_EQ(w.rank(), r);
  EXPECT_EQ(w.size(), n);
  EXPECT_GE(n, 2) << "run these tests with several ranks";
  mpi::Comm d = mpi::dup(MPI_COMM_WORLD);
  ASSERT_TRUE(d.valid());
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(mpi::raw(d), MPI_COMM_WORLD, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);
  mpi::Comm moved = std::move(d);
  EXPECT_FALSE(d.valid());  // NOLINT(bugprone-use-after-move): checking the moved-from state
  EXPECT_TRUE(moved.valid());
  EXPECT_EQ(moved.rank(), r);
  mpi::Comm other;
  EXPECT_FALSE(other.valid());
  other = std::move(moved);
  EXPECT_TRUE(other.valid());
  other.barrier();
}

TEST(Comm, SplitOrdersByKey) {
  auto w = world();
  int r = w.rank(), n = w.size();
  mpi::Comm sub = w.split(r % 2, -r);  // reverse order inside each parity
  auto m = members(sub);
  int same = 0, above = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 2 != r % 2) continue;
    ++same;
    if (i > r) ++above;
  }
  EXPECT_EQ(sub.size(), same);
  EXPECT_EQ(sub.rank(), above);
  for (size_t i = 1; i < m.size(); ++i) EXPECT_GT(m[i - 1], m[i]);
}

TEST(SplitByString, GroupsAndNumbering) {
  auto w = world();
  int r = w.rank(), n = w.size();
  int gid = -1, ngroups = -1;
  mpi::Comm node = mpi::split_by_string(w, "node" + std::to_string(r / 2), &gid, &ngroups);
  EXPECT_EQ(gid, r / 2);
  EXPECT_EQ(ngroups, (n + 1) / 2);
  EXPECT_EQ(node.rank(), r % 2);
  EXPECT_EQ(node.size(), (r / 2) * 2 + 1 < n ? 2 : 1);
  auto m = members(node);
  for (int i = 0; i < node.size(); ++i) EXPECT_EQ(m[static_cast<size_t>(i)], (r / 2) * 2 + i);
}

// Groups are numbered by sorted string, not by the ranks that hold them, and
// inside a group ranks follow the parent order.
TEST(SplitByString, NumberedInStringOrder) {
  auto w = world();
  int r = w.rank(), n = w.size();
  int gid = -1, ngroups = -1;
  mpi::Comm sub = mpi::split_by_string(w, r % 2 ? "alpha" : "zulu", &gid, &ngroups);
  EXPECT_EQ(ngroups, 2);
  EXPECT_EQ(gid, r % 2 ? 0 : 1);
  EXPECT_EQ(sub.rank(), r / 2);
  EXPECT_EQ(sub.size(), r % 2 ? n / 2 : (n + 1) / 2);
  auto m = members(sub);
  for (size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i] % 2, r % 2);
    if (i) {
      EXPECT_LT(m[i - 1], m[i]);
    }
  }
}

TEST(SplitByString, AllSameAndAllDistinct) {
  auto w = world();
  int r = w.rank(), n = w.size();
  int gid = -1, ngroups = -1;
  mpi::Comm all = mpi::split_by_string(w, "host", &gid, &ngroups);
  EXPECT_EQ(gid, 0);
  EXPECT_EQ(ngroups, 1);
  EXPECT_EQ(all.size(), n);
  EXPECT_EQ(all.rank(), r);
  // "x" * (n - r): the highest rank has the smallest string.
  mpi::Comm alone = mpi::split_by_string(w, std::string(static_cast<size_t>(n - r), 'x'), &gid, &ngroups);
  EXPECT_EQ(ngroups, n);
  EXPECT_EQ(gid, n - 1 - r);
  EXPECT_EQ(alone.size(), 1);
  mpi::Comm no_out = mpi::split_by_string(w, "host");  // optional outputs
  EXPECT_EQ(no_out.size(), n);
}

TEST(AllgatherStrings, VariedLengthsEmptyAndBinary) {
  auto w = world();
  int r = w.rank(), n = w.size();
  auto mine = [](int k) -> std::string {
    if (k == 1) return "";
    if (k == 2) return std::string("a\0b", 3);
    return std::string(static_cast<size_t>(k * 1000 + 1), static_cast<char>('a' + k));
  };
  auto all = mpi::allgather_strings(w, mine(r));
  ASSERT_EQ(all.size(), static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) EXPECT_EQ(all[static_cast<size_t>(k)], mine(k)) << "rank " << k;
}

// Gather to and scatter from a root other than 0, with an empty part.
TEST(GatherScatterStrings, ToAndFromARoot) {
  auto w = world();
  int r = w.rank(), n = w.size(), root = n - 1;
  auto part = [](int k) { return k == 1 ? std::string() : std::string(size_t(k + 1), char('a' + k)); };
  auto got = w.impl().gather_strings(part(r), root);
  ASSERT_EQ(got.size(), r == root ? size_t(n) : 0u);
  for (size_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k], part(int(k)));
  std::vector<std::string> parts;
  if (r == root)
    for (int k = 0; k < n; ++k) parts.push_back(part(n - 1 - k));
  EXPECT_EQ(w.impl().scatter_strings(parts, root), part(n - 1 - r));
}

TEST(GatherScatterTrees, ToAndFromRankOne) {
  auto w = world();
  int r = w.rank(), n = w.size();
  auto got = mpi::gather_trees(w, note(r, 1), 1);
  ASSERT_EQ(got.size(), r == 1 ? size_t(n) : 0u);
  for (const auto& [k, t] : got) EXPECT_EQ(t.int_or("FROM", -1), k);
  std::vector<Tree> out;
  if (r == 1)
    for (int k = 0; k < n; ++k) out.push_back(note(1, k));
  EXPECT_EQ(mpi::scatter_trees(w, out, 1).int_or("TO", -1), r);
}

TEST(Reductions, Values) {
  auto w = world();
  int r = w.rank(), n = w.size();
  bool t_all = mpi::all_true(w, true);
  bool f_all = mpi::all_true(w, r != n - 1);
  bool t_any = mpi::any_true(w, r == n - 1);
  bool f_any = mpi::any_true(w, false);
  int64_t s = mpi::sum(w, r);
  int64_t big = mpi::sum(w, int64_t{1} << 40);
  int64_t mx = mpi::max(w, int64_t{-100} + r);
  int64_t mn = mpi::min(w, int64_t{-100} + r);
  double dmx = mpi::max(w, 0.5 * r);
  EXPECT_TRUE(t_all);
  EXPECT_FALSE(f_all);
  EXPECT_TRUE(t_any);
  EXPECT_FALSE(f_any);
  EXPECT_EQ(s, int64_t{n} * (n - 1) / 2);
  EXPECT_EQ(big, int64_t{n} << 40);
  EXPECT_EQ(mx, -100 + n - 1);
  EXPECT_EQ(mn, -100);
  EXPECT_DOUBLE_EQ(dmx, 0.5 * (n - 1));
}

Tree big_tree() {
  Tree t;
  for (int i = 0; i < 3000; ++i) t.child("RANK", i).set("FILE", "ckpt." + std::to_string(i));
  t.child("DESC").set("TYPE", "XOR");
  return t;
}

TEST(Bcast, StringAndTree) {
  auto w = world();
  int r = w.rank(), n = w.size();
  int root = n - 1;
  std::string s = r == root ? std::string("payload\0x", 9) : "junk that must go";
  mpi::bcast_string(w, s, root);
  EXPECT_EQ(s, std::string("payload\0x", 9));
  Tree t;
  if (r == root) t = big_tree();
  else t.set("STALE", "1");
  mpi::bcast_tree(w, t, root);
  EXPECT_EQ(t, big_tree());
  EXPECT_FALSE(t.has("STALE"));
  Tree e;
  if (r != 0) e.set("STALE", "1");
  mpi::bcast_tree(w, e, 0);  // an empty tree replaces what receivers had
  EXPECT_TRUE(e.empty());
}

TEST(PointToPoint, SendRecvTree) {
  auto w = world();
  int r = w.rank(), n = w.size();
  if (r == 0) {
    for (int d = 1; d < n; ++d) mpi::send_tree(w, note(0, d), d, 11);
  } else {
    Tree got = mpi::recv_tree(w, 0, 11);
    EXPECT_EQ(got, note(0, r));
  }
  w.barrier();
}

TEST(PointToPoint, SendrecvRing) {
  auto w = world();
  int r = w.rank(), n = w.size();
  for (int shift = 1; shift < n; ++shift) {
    int dest = (r + shift) % n, src = (r - shift + n) % n;
    Tree got = mpi::sendrecv_tree(w, note(r, dest, shift), dest, src, 20 + shift);
    EXPECT_EQ(got, note(src, r, shift)) << "shift " << shift;
  }
  // shift 0: to and from ourselves
  Tree self = mpi::sendrecv_tree(w, note(r, r), r, r, 19);
  EXPECT_EQ(self, note(r, r));
}

void expect_from(const std::map<int, Tree>& got, const std::vector<int>& sources, int me,
                 int round = 0) {
  ASSERT_EQ(got.size(), sources.size()) << "rank " << me;
  for (int s : sources) {
    auto it = got.find(s);
    ASSERT_NE(it, got.end()) << "rank " << me << " missing tree from " << s;
    EXPECT_EQ(it->second, note(s, me, round)) << "rank " << me << " from " << s;
  }
}

TEST(ExchangeTrees, NobodySends) {
  auto w = world();
  auto got = mpi::exchange_trees(w, {});
  EXPECT_TRUE(got.empty());
}

TEST(ExchangeTrees, AllToAllIncludingSelf) {
  auto w = world();
  int r = w.rank(), n = w.size();
  std::map<int, Tree> send;
  for (int d = 0; d < n; ++d) send[d] = note(r, d);
  auto got = mpi::exchange_trees(w, send);
  std::vector<int> all;
  for (int s = 0; s < n; ++s) all.push_back(s);
  expect_from(got, all, r);
}

TEST(ExchangeTrees, OneToMany) {
  auto w = world();
  int r = w.rank(), n = w.size();
  std::map<int, Tree> send;
  if (r == 0)
    for (int d = 1; d < n; ++d) send[d] = note(0, d);
  auto got = mpi::exchange_trees(w, send);
  if (r == 0) expect_from(got, {}, r);
  else expect_from(got, {0}, r);
}

TEST(ExchangeTrees, ManyToOne) {
  auto w = world();
  int r = w.rank(), n = w.size();
  int sink = n - 1;
  auto got = mpi::exchange_trees(w, {{sink, note(r, sink)}});
  std::vector<int> all;
  for (int s = 0; s < n; ++s) all.push_back(s);
  if (r == sink) expect_from(got, all, r);
  else expect_from(got, {}, r);
}

// An empty tree that was sent is present in the result; nothing sent is absent.
TEST(ExchangeTrees, EmptyTreeIsStillDelivered) {
  auto w = world();
  int r = w.rank(), n = w.size();
  std::map<int, Tree> send;
  if (r % 2 == 0) send[(r + 1) % n] = Tree();
  auto got = mpi::exchange_trees(w, send);
  int src = (r - 1 + n) % n;
  bool expect = src % 2 == 0 && (src + 1) % n == r;
  ASSERT_EQ(got.size(), expect ? 1u : 0u) << "rank " << r;
  if (expect) {
    EXPECT_TRUE(got.at(src).empty());
  }
}

// Back-to-back rounds with changing sparse patterns must not mix rounds up.
TEST(ExchangeTrees, RepeatedRoundsStayInOrder) {
  auto w = world();
  int r = w.rank(), n = w.size();
  for (int round = 0; round < 12; ++round) {
    std::map<int, Tree> send;
    int step = 1 + round % (n - 1);
    if ((r + round) % 3 != 0) send[(r + step) % n] = note(r, (r + step) % n, round);
    auto got = mpi::exchange_trees(w, send);
    int src = (r - step + n) % n;
    std::vector<int> want;
    if ((src + round) % 3 != 0) want.push_back(src);
    expect_from(got, want, r, round);
  }
}

TEST(Agree, NoneFail) {
  auto w = world();
  Status st = mpi::agree(w, Status::Ok());
  EXPECT_TRUE(st.ok()) << st.to_string();
}

TEST(Agree, OneFailsEveryoneGetsItsError) {
  auto w = world();
  int r = w.rank(), n = w.size();
  for (int bad = 0; bad < n; ++bad) {
    Status local = r == bad ? scr::Error(Errc::not_found, "missing ckpt.3") : Status::Ok();
    Status st = mpi::agree(w, local);
    EXPECT_EQ(st.code(), Errc::not_found) << "failing rank " << bad;
    EXPECT_EQ(st.message(), "rank " + std::to_string(bad) + ": missing ckpt.3");
  }
}

TEST(Agree, LowestFailingRankWins) {
  auto w = world();
  int r = w.rank(), n = w.size();
  Status local;
  if (r == 1) local = scr::Error(Errc::no_space, "cache full");
  if (r == n - 1 && n - 1 != 1) local = scr::Error(Errc::corrupt, "bad crc");
  Status st = mpi::agree(w, local);
  EXPECT_EQ(st.code(), Errc::no_space);
  EXPECT_EQ(st.message(), "rank 1: cache full");
  // everyone fails: rank 0's error, even with a long message
  std::string longmsg(5000, static_cast<char>('a' + r));
  Status all = mpi::agree(w, scr::Error(static_cast<Errc>(1 + r % 10), longmsg));
  EXPECT_EQ(all.code(), Errc::invalid_argument);
  EXPECT_EQ(all.message(), "rank 0: " + std::string(5000, 'a'));
}

// An error agreed on twice (an inner agreement, then the caller's) names
// its rank once.
TEST(Agree, AgreedTwiceNamesTheRankOnce) {
  auto w = world();
  Status local = w.rank() == 1 ? scr::Error(Errc::corrupt, "XOR set 0 lost 2 members") : Status::Ok();
  Status once = mpi::agree(w, local);
  Status twice = mpi::agree(w, once);
  EXPECT_EQ(twice.code(), Errc::corrupt);
  EXPECT_EQ(twice.message(), "rank 1: XOR set 0 lost 2 members");
  EXPECT_TRUE(mpi::names_a_rank("rank 12: x"));
  EXPECT_FALSE(mpi::names_a_rank("rank x: y"));
  EXPECT_FALSE(mpi::names_a_rank("ranks 1: y"));
  EXPECT_FALSE(mpi::names_a_rank("rank 3 failed"));
}

TEST(Agree, OnSubCommunicators) {
  auto w = world();
  int r = w.rank();
  mpi::Comm sub = w.split(r % 2, r);
  Status local = (r % 2 == 1 && sub.rank() == 0) ? scr::Error(Errc::io_error, "odd side") : Status::Ok();
  Status st = mpi::agree(sub, local);
  if (r % 2 == 1) {
    EXPECT_EQ(st.code(), Errc::io_error);
    EXPECT_EQ(st.message(), "rank 0: odd side");
  } else {
    EXPECT_TRUE(st.ok()) << st.to_string();
  }
}

}  // namespace
