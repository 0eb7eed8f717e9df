// Exhaustive loss tests, the redundancy layer's main proof of correctness:
// for every set size from 2 to the number of ranks, apply each scheme to
// random files, delete the files of every combination of members up to what
// the scheme tolerates, recover, and compare bytes and metadata with the
// originals; one more loss must be refused with Errc::unrecoverable on every
// rank, with no file changed. PARTNER, whose tolerance depends on where the
// losses fall, is checked against every combination.
#include <gtest/gtest.h>

#include <bit>
#include <ostream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "loss_cases.hpp"
#include "io/env.hpp"
#include "mpi/comm.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Scheme;

using Config = redset::test::LossCase;
using redset::test::recoverable;
using redset::test::tolerance;

// PARTNER: every combination. XOR/RS: up to one more than tolerated.
bool worth_testing(const Config& c, unsigned lost) {
  return c.scheme == Scheme::partner || std::popcount(lost) <= tolerance(c) + 1;
}

class LossTest : public ::testing::TestWithParam<Config> {
 protected:
  mpi::Comm world_ = mpi::Comm::borrow(MPI_COMM_WORLD);
  io::Env& env_ = io::Env::posix();

  // One set of n members: apply, then every combination of losses.
  void run_set(const mpi::Comm& comm, int n, const redset::test::Scratch& scratch) {
    const Config& c = GetParam();
    redset::Params params{c.scheme, n, c.checks, c.replicas, 4096};
    std::string node = "node" + std::to_string(world_.rank());
    auto set = redset::Set::create(comm, node, params);
    ASSERT_TRUE(set.ok()) << set.status().to_string();
    ASSERT_EQ(n, set->ranks());
    ASSERT_EQ(c.scheme, set->scheme());

    std::string dir = scratch.node_dir(node) + "/" + c.name + "_n" + std::to_string(n);
    uint64_t seed =
        1000003ull * static_cast<uint64_t>(world_.rank()) + 7919ull * static_cast<uint64_t>(n);
    redset::test::Member me(dir, redset::test::make_files(dir, "", seed));
    Status applied = redset::apply(env_, *set, dir, me.files());
    ASSERT_TRUE(applied.ok()) << applied.to_string();
    me.snapshot(*set);

    for (unsigned lost = 0; lost < (1u << n); ++lost) {
      if (!worth_testing(c, lost)) continue;
      bool ok = check_loss(comm, *set, me, lost, recoverable(c, n, lost));
      ASSERT_TRUE(mpi::all_true(comm, ok)) << c.name << " set size " << n << " lost mask " << lost;
    }
    EXPECT_TRUE(redset::unapply(env_, *set, dir).ok());
    EXPECT_FALSE(env_.exists(redset::redundancy_file(*set, dir)));
  }

  // Returns whether this rank saw what it should; failures are reported here.
  bool check_loss(const mpi::Comm& comm, const redset::Set& set, const redset::test::Member& me,
                  unsigned lost, bool expect_rebuild) {
    bool mine_lost = lost & (1u << set.rank());
    if (mine_lost) me.lose();
    comm.barrier();  // every loss happens before anyone looks
    auto got = redset::recover(env_, set, me.dir());
    if (expect_rebuild) {
      EXPECT_TRUE(got.ok()) << got.status().to_string();
      if (!got.ok()) return false;
      EXPECT_EQ(me.files(), *got);
      std::string diff = me.differences();
      EXPECT_EQ("", diff);
      return *got == me.files() && diff.empty();
    }
    EXPECT_EQ(Errc::unrecoverable, got.status().code()) << got.status().to_string();
    std::string changed = mine_lost ? me.present() : me.differences();
    EXPECT_EQ("", changed) << "a refused recovery changed files";
    if (mine_lost) me.restore();
    return got.status().code() == Errc::unrecoverable && changed.empty();
  }
};

TEST_P(LossTest, EveryCombinationUpToToleranceIsRebuiltAndMoreIsRefused) {
  const Config& c = GetParam();
  redset::test::Scratch scratch(world_);
  for (int n = 2; n <= world_.size(); ++n) {
    if (c.checks >= n || c.replicas >= n) continue;
    mpi::Comm comm = world_.split(world_.rank() / n, world_.rank());
    if (comm.size() == n) run_set(comm, n, scratch);
    world_.barrier();
  }
}

// Pieces of 64 KiB and files of hundreds of KiB: pieces inside one file are
// read in place (memory-mapped) and sent from the mapping, pieces across files
// or into the padding are copied. Each member alone, then the first
// `tolerance` members together.
TEST_P(LossTest, LargeFilesAreStreamedInPlace) {
  const Config& c = GetParam();
  redset::test::Scratch scratch(world_);
  int n = world_.size();
  redset::Params params{c.scheme, n, c.checks, c.replicas, 64 << 10};
  std::string node = "node" + std::to_string(world_.rank());
  auto set = redset::Set::create(world_, node, params);
  ASSERT_TRUE(set.ok());
  std::string dir = scratch.node_dir(node) + "/large_" + c.name;
  uint64_t r = static_cast<uint64_t>(world_.rank());
  redset::test::Member me(
      dir, redset::test::make_sized_files(dir, "", {900000 + 4097 * r, 70000, 3}, r));
  ASSERT_TRUE(redset::apply(env_, *set, dir, me.files()).ok());
  me.snapshot(*set);
  std::vector<unsigned> masks;
  for (int m = 0; m < n; ++m) masks.push_back(1u << m);
  masks.push_back((1u << tolerance(c)) - 1);
  for (unsigned lost : masks) {
    bool ok = check_loss(world_, *set, me, lost, true);
    ASSERT_TRUE(mpi::all_true(world_, ok)) << c.name << " lost mask " << lost;
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, LossTest,
                         ::testing::ValuesIn(redset::test::all_loss_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
