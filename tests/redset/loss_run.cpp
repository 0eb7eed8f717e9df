#include "loss_run.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "harness.hpp"
#include "io/env.hpp"
#include "redset/redset.hpp"

namespace scr::redset::test {
namespace {

// PARTNER: every combination. XOR/RS: up to one more than tolerated.
bool worth_testing(const LossCase& c, unsigned lost) {
  return c.scheme == Scheme::partner || std::popcount(lost) <= tolerance(c) + 1;
}

// Returns whether this rank saw what it should; failures are reported here.
bool check_loss(const mpi::Comm& comm, const Set& set, const Member& me, unsigned lost,
                bool expect_rebuild) {
  io::Env& env = io::Env::posix();
  bool mine_lost = lost & (1u << set.rank());
  if (mine_lost) me.lose();
  comm.barrier();  // every loss happens before anyone looks
  auto got = recover(env, set, me.dir());
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

// One set of n members: apply, then every combination of losses.
void check_set(const mpi::Comm& world, const mpi::Comm& comm, const LossCase& c, int n,
               const Scratch& scratch) {
  io::Env& env = io::Env::posix();
  Params params{c.scheme, n, c.checks, c.replicas, 4096};
  std::string node = "node" + std::to_string(world.rank());
  auto set = Set::create(comm, node, params);
  ASSERT_TRUE(set.ok()) << set.status().to_string();
  ASSERT_EQ(n, set->ranks());
  ASSERT_EQ(c.scheme, set->scheme());

  std::string dir = scratch.node_dir(node) + "/" + c.name + "_n" + std::to_string(n);
  uint64_t seed =
      1000003ull * static_cast<uint64_t>(world.rank()) + 7919ull * static_cast<uint64_t>(n);
  Member me(dir, make_files(dir, "", seed));
  Status applied = apply(env, *set, dir, me.files());
  ASSERT_TRUE(applied.ok()) << applied.to_string();
  me.snapshot(*set);

  for (unsigned lost = 0; lost < (1u << n); ++lost) {
    if (!worth_testing(c, lost)) continue;
    bool ok = check_loss(comm, *set, me, lost, recoverable(c, n, lost));
    ASSERT_TRUE(mpi::all_true(comm, ok)) << c.name << " set size " << n << " lost mask " << lost;
  }
  EXPECT_TRUE(unapply(env, *set, dir).ok());
  EXPECT_FALSE(env.exists(redundancy_file(*set, dir)));
}

}  // namespace

void check_every_combination(const mpi::Comm& world, const LossCase& c) {
  Scratch scratch(world);
  for (int n = 2; n <= world.size(); ++n) {
    if (c.checks >= n || c.replicas >= n) continue;
    mpi::Comm comm = world.split(world.rank() / n, world.rank());
    if (comm.size() == n) check_set(world, comm, c, n, scratch);
    world.barrier();
  }
}

void check_large_files_streamed(const mpi::Comm& world, const LossCase& c) {
  io::Env& env = io::Env::posix();
  Scratch scratch(world);
  int n = world.size();
  Params params{c.scheme, n, c.checks, c.replicas, 64 << 10};
  std::string node = "node" + std::to_string(world.rank());
  auto set = Set::create(world, node, params);
  ASSERT_TRUE(set.ok());
  std::string dir = scratch.node_dir(node) + "/large_" + c.name;
  uint64_t r = static_cast<uint64_t>(world.rank());
  Member me(dir, make_sized_files(dir, "", {900000 + 4097 * r, 70000, 3}, r));
  ASSERT_TRUE(apply(env, *set, dir, me.files()).ok());
  me.snapshot(*set);
  std::vector<unsigned> masks;
  for (int m = 0; m < n; ++m) masks.push_back(1u << m);
  masks.push_back((1u << tolerance(c)) - 1);
  for (unsigned lost : masks) {
    bool ok = check_loss(world, *set, me, lost, true);
    ASSERT_TRUE(mpi::all_true(world, ok)) << c.name << " lost mask " << lost;
  }
}

}  // namespace scr::redset::test
